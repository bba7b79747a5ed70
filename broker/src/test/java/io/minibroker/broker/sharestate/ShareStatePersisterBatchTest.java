package io.minibroker.broker.sharestate;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.cluster.ClusterMetadata.BrokerNode;
import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.cluster.ClusterMetadata.TopicImage;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.transaction.NodeChannels;
import io.minibroker.protocol.error.Errors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A group's initialization as Kafka's persister sends it: one InitializeShareGroupState to a share coordinator for
 * all the group's partitions it holds, each partition's answer checked. The coordinator is a broker of its own
 * (node 2 of the image the persister, node 1, is given), leading the only partition of {@code __share_group_state}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareStatePersisterBatchTest {

    @TempDir
    Path logDir;
    private Broker coordinatorNode;
    private NodeChannels channels;
    private ShareStatePersister persister;
    private UUID data;

    @BeforeEach
    void start() throws Exception {
        coordinatorNode = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(coordinatorNode)) {
            admin.createTopics(List.of(new NewTopic("data", 4, (short) 1))).all().get();
            Uuid id = admin.describeTopics(List.of("data")).allTopicNames().get().get("data").topicId();
            data = new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
        }
        ClusterMetadata image = new ClusterMetadata(List.of(new BrokerNode(2, "PLAINTEXT", "localhost", coordinatorNode.boundPort("PLAINTEXT"))),
                Map.of(ShareCoordinator.NAME, new TopicImage(ShareCoordinator.NAME, new UUID(2, 2),
                        List.of(new PartitionImage(0, 2, 0, List.of(2), List.of(2), List.of())))));
        channels = new NodeChannels("share-state-batch-test", ClientSecurity.NONE, 10_000);
        persister = ShareStatePersister.cluster(1, null, () -> image, channels, "PLAINTEXT");
    }

    @AfterEach
    void stop() {
        channels.close();
        coordinatorNode.close();
    }

    private double initializeRequests() {
        return coordinatorNode.meterRegistry().get("kafka.network.requestmetrics.requests")
                .tag("request", "InitializeShareGroupState").counter().count();
    }

    @Test
    void aGroupsPartitionsAreInitializedInOneRequestPerCoordinator() throws Exception {
        persister.initialize("g", Map.of(data, Set.of(0, 1, 2, 3)), 1, -1).toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertThat(initializeRequests()).isEqualTo(1);
        for (int partition = 0; partition < 4; partition++) {
            assertThat(persister.read(new SharePartitionKey("g", data, partition), 0).toCompletableFuture()
                    .get(10, TimeUnit.SECONDS).stateEpoch()).as("partition %d initialized", partition).isEqualTo(1);
        }

        // Partition 7 does not exist: its own answer fails the whole, as Kafka's group coordinator takes it.
        assertThatThrownBy(() -> persister.initialize("g", Map.of(data, Set.of(0, 7)), 2, -1).toCompletableFuture()
                .get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(LogException.class)
                .extracting(e -> ((LogException) e).error()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(initializeRequests()).isEqualTo(2);
    }
}
