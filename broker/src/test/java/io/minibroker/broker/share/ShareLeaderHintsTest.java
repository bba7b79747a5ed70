package io.minibroker.broker.share;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static io.minibroker.broker.share.ShareWire.ack;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-951 in the share APIs, as Kafka 4.3.1's KafkaApis: a ShareFetch that a follower answers NOT_LEADER_OR_FOLLOWER
 * names the partition's leader and epoch, and the answer that leader's endpoint on the listener the request came in
 * on; acknowledgements sent to it are UNKNOWN_TOPIC_OR_PARTITION, with no leader named.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareLeaderHintsTest {

    private static final String TOPIC = "hinted";

    private MiniCluster cluster;
    private UUID topicId;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("replica.fetch.wait.max.ms", "100"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.controller().boundPort("PLAINTEXT")))) {
            Uuid id = admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(1, 2, 0))))).topicId(TOPIC)
                    .get();
            topicId = new UUID(id.getMostSignificantBits(), id.getLeastSignificantBits());
        }
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void aFollowerRefusingAShareFetchNamesTheLeaderAndItsEndpoint() throws Exception {
        int leaderPort = cluster.node(1).boundPort("PLAINTEXT");
        try (ShareWire member = new ShareWire(cluster.node(2).boundPort("PLAINTEXT"), "g", "member-a", topicId)) {
            // The follower learns of the topic from an image: until then it does not know the topic id at all.
            ShareFetchResponseView[] fetched = new ShareFetchResponseView[1];
            await(() -> {
                try {
                    fetched[0] = member.fetchOf(0, List.of(topicId));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return !fetched[0].responses().isEmpty()
                        && partition(fetched[0]).errorCode() == Errors.NOT_LEADER_OR_FOLLOWER.code();
            }, "node 2 to follow the topic");
            assertThat(partition(fetched[0]).currentLeader().leaderId()).isEqualTo(1);
            assertThat(partition(fetched[0]).currentLeader().leaderEpoch()).isGreaterThanOrEqualTo(0);
            assertThat(fetched[0].nodeEndpoints()).singleElement().satisfies(node -> {
                assertThat(node.nodeId()).isEqualTo(1);
                assertThat(node.port()).isEqualTo(leaderPort);
            });

            // Acknowledgements of a partition led elsewhere: as Kafka's SharePartitionManager, which holds no share
            // partition of it, UNKNOWN_TOPIC_OR_PARTITION (a ShareAcknowledge names a leader only for a fenced
            // write: ShareAcknowledgeAnswersTest)
            ShareAcknowledgeResponseView acknowledged = member.acknowledge(ack(0, 0, AcknowledgeType.ACCEPT));
            ShareAcknowledgeResponseView.PartitionData refused = acknowledged.responses().get(0).partitions().get(0);
            assertThat(refused.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(refused.errorMessage()).isEqualTo("This server does not host this topic-partition.");
            assertThat(refused.currentLeader().leaderId()).isEqualTo(-1);
            assertThat(acknowledged.nodeEndpoints()).isEmpty();
        }
    }

    private static ShareFetchResponseView.PartitionData partition(ShareFetchResponseView response) {
        return response.responses().get(0).partitions().get(0);
    }
}
