package io.minibroker.broker.group;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.topic.TopicIds;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deleted topic's commits and share state in a three-node cluster. The group's coordinator hosts no replica of the
 * topic, and still deletes the group's commits of it when the topic leaves the image it applies, as every Kafka
 * broker tells its group coordinator; the tombstones are replicated with the offsets partition, so the broker that
 * takes the group over replays them and has the commits of the other topic only. Each node's share coordinator
 * tombstones the topic's share partitions in the partitions of {@code __share_group_state} it leads (Kafka's
 * ShareCoordinatorShard.maybeCleanupShareState), and the share group's coordinator writes its record 15 without the
 * topic; the other topic's share state stays listed.
 */
@Timeout(180)
class DeletedTopicOffsetsClusterTest {

    private static final String GROUP = "deleted-topic-group";
    private static final String SHARE_GROUP = "deleted-topic-share-group";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);
    private static final TopicPartition PAYMENTS_0 = new TopicPartition("payments", 0);
    private static final String SHARE_STATE = "__share_group_state";

    private MiniCluster cluster;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("offsets.topic.num.partitions", "3",
                "offsets.topic.replication.factor", "3", "share.coordinator.state.topic.num.partitions", "3"));
        // Topics of replication factor 3 need every broker registered, which a start does not wait for.
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
    }

    @AfterEach
    void close() {
        if (admin != null) {
            admin.close();
        }
        cluster.close();
    }

    @Test
    void theCoordinatorDeletesTheCommitsOfATopicItHasNoReplicaOfAndItsSuccessorReplaysTheTombstones()
            throws Exception {
        admin.createTopics(List.of(new NewTopic("payments", 1, (short) 3))).all().get();
        await(() -> commits(Map.of(PAYMENTS_0, 7L)), "a commit, once the coordinator's image has the topic");
        int[] found = {-1};
        await(() -> (found[0] = coordinator()) >= 0, "the admin to find the group's coordinator");
        int coordinator = found[0];
        List<Integer> others = new ArrayList<>(List.of(0, 1, 2));
        others.remove(Integer.valueOf(coordinator));
        admin.createTopics(List.of(new NewTopic("orders", Map.of(0, List.of(others.get(0)), 1,
                List.of(others.get(1)))))).all().get();
        await(() -> commits(Map.of(ORDERS_0, 5L, ORDERS_1, 6L)), "the commits of a topic with no replica there");
        assertThat(committed()).isEqualTo(Map.of(ORDERS_0, 5L, ORDERS_1, 6L, PAYMENTS_0, 7L));

        admin.deleteTopics(List.of("orders")).all().get();
        await(() -> committed().equals(Map.of(PAYMENTS_0, 7L)), "the commits of orders to be deleted");

        // Answered once replicated, as are the tombstones before it in the offsets partition.
        assertThat(commits(Map.of(PAYMENTS_0, 8L))).isTrue();
        int successor = others.get(0);
        cluster.moveGroupCoordinator(GROUP, successor);
        await(() -> coordinator() == successor && committed().equals(Map.of(PAYMENTS_0, 8L)),
                "node " + successor + " to coordinate the group with the commits of payments only");
    }

    @Test
    void everyGroupsShareStateOfTheDeletedTopicIsTombstonedAndTheOtherTopicsStays() throws Exception {
        admin.createTopics(List.of(new NewTopic("orders", 2, (short) 3), new NewTopic("payments", 1, (short) 3)))
                .all().get();
        UUID orders = TopicIds.fromText(admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders")
                .topicId().toString());
        await(() -> altered(Map.of(ORDERS_0, 0L, ORDERS_1, 1L, PAYMENTS_0, 0L)),
                "the share state set, once every node's image has the topics");
        assertThat(listed()).containsExactlyInAnyOrder(ORDERS_0, ORDERS_1, PAYMENTS_0);

        admin.deleteTopics(List.of("orders")).all().get();

        await(() -> stateTombstones().containsAll(Set.of(new SharePartitionKey(SHARE_GROUP, orders, 0),
                new SharePartitionKey(SHARE_GROUP, orders, 1))), "the tombstones of the orders share partitions' state");
        assertThat(stateTombstones()).as("none of payments'").allMatch(key -> key.topicId().equals(orders));
        assertThat(listed()).containsExactly(PAYMENTS_0);
    }

    /** Sets the group's share state of these partitions (AlterShareGroupOffsets); false if refused. */
    private boolean altered(Map<TopicPartition, Long> offsets) {
        try {
            admin.alterShareGroupOffsets(SHARE_GROUP, offsets).all().get();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** The share partitions Admin.listShareGroupOffsets lists for the group. */
    private Set<TopicPartition> listed() throws Exception {
        return admin.listShareGroupOffsets(Map.of(SHARE_GROUP, new ListShareGroupOffsetsSpec()))
                .partitionsToOffsetInfo(SHARE_GROUP).get().keySet();
    }

    /** A ShareSnapshotKey as Kafka's schema lays it out: version, group id, topic id, partition. */
    private static SharePartitionKey shareStateKey(byte[] key) {
        ByteBuffer in = ByteBuffer.wrap(key);
        assertThat(in.getShort()).as("ShareSnapshotKey").isZero();
        byte[] groupId = new byte[in.getShort()];
        in.get(groupId);
        return new SharePartitionKey(new String(groupId, StandardCharsets.UTF_8), new UUID(in.getLong(), in.getLong()),
                in.getInt());
    }

    /** The share partitions whose state has a tombstone in {@code __share_group_state}, read to its end. */
    private List<SharePartitionKey> stateTombstones() {
        List<SharePartitionKey> tombstones = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))) {
            List<TopicPartition> partitions = List.of(new TopicPartition(SHARE_STATE, 0),
                    new TopicPartition(SHARE_STATE, 1), new TopicPartition(SHARE_STATE, 2));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(partition -> consumer.position(partition) < ends.get(partition))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    if (record.value() == null) {
                        tombstones.add(shareStateKey(record.key()));
                    }
                }
            }
        }
        return tombstones;
    }

    /** The group's coordinator, as the admin finds it (-1 until it does: the group has no commit yet). */
    private int coordinator() {
        try {
            return admin.describeConsumerGroups(List.of(GROUP)).all().get().get(GROUP).coordinator().id();
        } catch (Exception e) {
            return -1;
        }
    }

    /** Commits these offsets as a tool does (OffsetCommit without a generation); false if refused. */
    private boolean commits(Map<TopicPartition, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> commit = new HashMap<>();
        offsets.forEach((partition, offset) -> commit.put(partition, new OffsetAndMetadata(offset)));
        try {
            admin.alterConsumerGroupOffsets(GROUP, commit).all().get();
            return true;
        } catch (Exception e) {
            return false;
        }
    }

    /** The group's committed offsets, all of them (OffsetFetch of every partition); empty if not answered. */
    private Map<TopicPartition, Long> committed() {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        try {
            admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get()
                    .forEach((partition, offset) -> offsets.put(partition, offset.offset()));
        } catch (Exception e) {
            return Map.of();
        }
        return offsets;
    }
}
