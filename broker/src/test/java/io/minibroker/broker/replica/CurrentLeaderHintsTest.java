package io.minibroker.broker.replica;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ShareAcknowledgeRequestView;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.Uuid;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KIP-951: a produce (v10+), fetch (v16+) or share fetch a follower refuses NOT_LEADER_OR_FOLLOWER names the
 * partition's leader and epoch, and the answer that leader's endpoint on the listener the request came in on, with
 * its rack, as Kafka's KafkaApis; acknowledgements sent to a follower are UNKNOWN_TOPIC_OR_PARTITION, naming no leader, as Kafka
 * 4.3.1's SharePartitionManager holds no share partition of a partition led elsewhere.
 */
class CurrentLeaderHintsTest {

    private static final String TOPIC = "hinted";

    private MiniCluster cluster;
    private UUID topicId;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("replica.fetch.wait.max.ms", "100"),
                id -> Map.of("broker.rack", "rack-" + id));
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
    void aFollowerRefusingAProduceOrAFetchNamesTheLeaderAndItsEndpoint() throws Exception {
        try (NodeChannel follower = new NodeChannel("localhost", cluster.node(2).boundPort("PLAINTEXT"),
                "hints-test", 10_000)) {
            int leaderPort = cluster.node(1).boundPort("PLAINTEXT");
            // The follower learns of the topic from an image: until then it does not know the partition at all.
            await(() -> produce(follower).getStructs("Responses").get(0).getStructs("PartitionResponses").get(0)
                    .getInt16("ErrorCode") == Errors.NOT_LEADER_OR_FOLLOWER.code(), "node 2 to follow the topic");

            Struct produced = produce(follower);
            Struct partition = produced.getStructs("Responses").get(0).getStructs("PartitionResponses").get(0);
            assertThat(partition.getStruct("CurrentLeader").getInt32("LeaderId")).isEqualTo(1);
            assertThat(partition.getStruct("CurrentLeader").getInt32("LeaderEpoch")).isGreaterThanOrEqualTo(0);
            assertThat(produced.getStructs("NodeEndpoints")).singleElement().satisfies(node -> {
                assertThat(node.getInt32("NodeId")).isEqualTo(1);
                assertThat(node.getInt32("Port")).isEqualTo(leaderPort);
                assertThat(node.getString("Rack")).isEqualTo("rack-1");
            });

            Struct fetched = fetch(follower);
            Struct fetchedPartition = fetched.getStructs("Responses").get(0).getStructs("Partitions").get(0);
            assertThat(fetchedPartition.getInt16("ErrorCode")).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER.code());
            assertThat(fetchedPartition.getStruct("CurrentLeader").getInt32("LeaderId")).isEqualTo(1);
            assertThat(fetched.getStructs("NodeEndpoints")).singleElement().satisfies(node -> {
                assertThat(node.getInt32("Port")).isEqualTo(leaderPort);
                assertThat(node.getString("Rack")).isEqualTo("rack-1");
            });
        }
    }

    @Test
    void aFollowerRefusingAShareFetchNamesTheLeaderAndItsEndpoint() throws Exception {
        try (NodeChannel follower = new NodeChannel("localhost", cluster.node(2).boundPort("PLAINTEXT"),
                "hints-test", 10_000)) {
            int leaderPort = cluster.node(1).boundPort("PLAINTEXT");
            // The follower learns of the topic from an image: until then it does not know the topic id at all.
            await(() -> {
                ShareFetchResponseView opened = shareFetch(follower);
                return !opened.responses().isEmpty() && opened.responses().get(0).partitions().get(0).errorCode()
                        == Errors.NOT_LEADER_OR_FOLLOWER.code();
            }, "node 2 to follow the topic");

            ShareFetchResponseView fetched = shareFetch(follower);
            ShareFetchResponseView.PartitionData partition = fetched.responses().get(0).partitions().get(0);
            assertThat(partition.currentLeader().leaderId()).isEqualTo(1);
            assertThat(partition.currentLeader().leaderEpoch()).isGreaterThanOrEqualTo(0);
            assertThat(fetched.nodeEndpoints()).singleElement().satisfies(node -> {
                assertThat(node.nodeId()).isEqualTo(1);
                assertThat(node.port()).isEqualTo(leaderPort);
            });

            // A ShareAcknowledge names a leader only for a fenced state write (ShareAcknowledgeAnswersTest).
            ShareAcknowledgeRequestView acknowledge = new ShareAcknowledgeRequestView().groupId("g")
                    .memberId("member-a").shareSessionEpoch(1);
            acknowledge.addTopic().topicId(topicId).addPartition().partitionIndex(0).addAcknowledgementBatche()
                    .firstOffset(0).lastOffset(0).acknowledgeTypes(List.of((byte) 1));
            ShareAcknowledgeResponseView acknowledged = new ShareAcknowledgeResponseView(follower.send(
                    ApiKey.SHARE_ACKNOWLEDGE, (short) 2, acknowledge.struct()));
            ShareAcknowledgeResponseView.PartitionData refused = acknowledged.responses().get(0).partitions().get(0);
            assertThat(refused.errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(refused.errorMessage()).isEqualTo("This server does not host this topic-partition.");
            assertThat(refused.currentLeader().leaderId()).as("Kafka's default, no leader named").isZero();
            assertThat(acknowledged.nodeEndpoints()).isEmpty();
        }
    }

    /** A share member's ShareFetch v2 of partition 0, opening its session (epoch 0), not waiting. */
    private ShareFetchResponseView shareFetch(NodeChannel channel) {
        ShareFetchRequestView request = new ShareFetchRequestView().groupId("g").memberId("member-a")
                .shareSessionEpoch(0).maxWaitMs(0).minBytes(1).maxBytes(1 << 20).maxRecords(10).batchSize(10);
        request.addTopic().topicId(topicId).addPartition().partitionIndex(0);
        try {
            return new ShareFetchResponseView(channel.send(ApiKey.SHARE_FETCH, (short) 2, request.struct()));
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A Produce v10 (topics by name) of one record to partition 0. */
    private static Struct produce(NodeChannel channel) {
        ByteBuf built = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 1L)
                .append(1L, null, "v".getBytes(StandardCharsets.UTF_8), List.of()).build();
        ByteBuf batch = Unpooled.wrappedBuffer(ByteBufUtil.getBytes(built));
        built.release();
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) 1).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", TOPIC).addElement("PartitionData").set("Index", 0)
                .set("Records", batch);
        try {
            return channel.send(ApiKey.PRODUCE, (short) 10, body);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A Fetch v16 (topics by id) of partition 0 from offset 0 by replica 0: a replica's fetch reads from the leader
     * only (a consumer's v11+ fetch a follower serves, KIP-392).
     */
    private Struct fetch(NodeChannel channel) throws Exception {
        Struct fetch = ApiKey.FETCH.request().newMessage().set("MaxWaitMs", 0)
                .set("MinBytes", 0).set("MaxBytes", 1 << 20).set("SessionId", 0).set("SessionEpoch", -1);
        fetch.getStruct("ReplicaState").set("ReplicaId", 0).set("ReplicaEpoch", -1L);
        fetch.addElement("Topics").set("TopicId", topicId).addElement("Partitions").set("Partition", 0)
                .set("CurrentLeaderEpoch", -1).set("FetchOffset", 0L).set("PartitionMaxBytes", 1024);
        return channel.send(ApiKey.FETCH, (short) 16, fetch);
    }
}
