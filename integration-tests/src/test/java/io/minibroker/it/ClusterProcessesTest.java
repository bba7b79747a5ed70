package io.minibroker.it;

import io.minibroker.broker.embedded.PickedPort;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three processes' controller port taken between its pick and node 0's bind, made certain: the first port picked
 * is one this test holds, as any socket of the machine could have taken it meanwhile. Node 0's process ends on the
 * BindException; the cluster starts on a port picked again, and every node reaches the controller there.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterProcessesTest {

    @TempDir
    Path root;

    @Test
    void aControllerPortTakenBeforeNode0BindsItIsPickedAgain() throws Exception {
        AtomicInteger picks = new AtomicInteger();
        try (ServerSocket taken = new ServerSocket(0);
             ClusterProcesses cluster = ClusterProcesses.start(root, Map.of(),
                     () -> picks.getAndIncrement() == 0 ? taken.getLocalPort() : PickedPort.free());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()))) {
            assertThat(picks).as("the port taken, then another").hasValue(2);
            Eventually.await(() -> admin.describeCluster().nodes().toCompletionStage().toCompletableFuture().join()
                    .size() == ClusterProcesses.SIZE, "every node registered with the controller");
        }
    }
}
