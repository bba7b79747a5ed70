package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RequestFuzzer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request fuzz ({@link RequestFuzzer}) against a cluster of three: a broker's client listener, the
 * controller node's, and the controller listener, whose APIs (BrokerRegistration, BrokerHeartbeat,
 * AlterPartition, forwarded admin) only brokers should send. Every request gets an answer, no handler throws,
 * and every listener answers afterwards.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ClusterRequestFuzzTest {

    @Test
    void everyListenerAnswersRandomFieldsWithoutAHandlerFailing() throws Exception {
        // The real clock, for the fuzzed requests' timeouts to run out; no node stops, so a long session, that a
        // loaded machine cannot let run out for a live node meanwhile.
        try (MiniCluster cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", "30000", "replica.fetch.wait.max.ms", "100",
                "group.initial.rebalance.delay.ms", "0"));
             RequestFuzzer fuzzer = new RequestFuzzer()) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
            int[] ports = {cluster.node(1).boundPort("PLAINTEXT"), cluster.controller().boundPort("PLAINTEXT"),
                    cluster.controller().boundPort("CONTROLLER")};

            for (int port : ports) {
                fuzzer.fuzz(port);
            }

            assertThat(fuzzer.unanswered()).as("requests not answered, of %d sent, seed %d", fuzzer.sent(),
                    RequestFuzzer.SEED).isEmpty();
            assertThat(fuzzer.errorsLogged()).isEmpty();
            for (int port : ports) {
                assertThat(RequestFuzzer.answers(port)).as("port %d", port).isTrue();
            }
        }
    }
}
