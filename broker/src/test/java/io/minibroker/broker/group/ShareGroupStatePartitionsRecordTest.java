package io.minibroker.broker.group;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataKey;
import org.apache.kafka.coordinator.group.generated.ShareGroupStatePartitionMetadataValue;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * ShareGroupStatePartitionMetadata (record 15) byte for byte as Kafka 4.3.1's generated classes write it, read back
 * by the replay, and a group that has this record alone (made by AlterShareGroupOffsets) coming and going with it.
 */
class ShareGroupStatePartitionsRecordTest {

    private static final UUID INITIALIZED = new UUID(1, 2);
    private static final UUID INITIALIZING = new UUID(3, 4);
    private static final UUID DELETING = new UUID(5, 6);
    /** The name of every topic those tests subscribe to. */
    private static final Function<UUID, Optional<String>> NAMES = topicId -> Optional.of("orders");

    /** A group no member joined, with state for partitions of three topics, one in each set. */
    private static ShareGroup group() {
        ShareGroup group = new ShareGroup("g");
        ShareGroupStatePartitions state = group.statePartitions();
        state.initialize(INITIALIZED, "orders", List.of(2, 0, 1));
        state.initializing.put(INITIALIZING, new ShareGroupStatePartitions.Topic("new", new TreeSet<>(Set.of(5))));
        state.deleting.put(DELETING, "gone");
        return group;
    }

    private static ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo kafkaTopic(UUID id, String name,
                                                                                         List<Integer> partitions) {
        return new ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo()
                .setTopicId(new Uuid(id.getMostSignificantBits(), id.getLeastSignificantBits()))
                .setTopicName(name).setPartitions(partitions);
    }

    private static byte[] bytes(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /**
     * The bytes Kafka's generated classes write, spelled out from its schemas (4.3.1's classes read them below, but
     * their writers need a kafka-clients older than the 4.4 on this classpath).
     */
    private static final String KEY = "000f" + "0001" + "67"; // type 15, GroupId "g" (int16 length)
    private static final String VALUE = "0000" // version 0, flexible
            + "02" + uuid(3, 4) + "04" + "6e6577" + "02" + "00000005" + "00" // InitializingTopics: new [5]
            + "02" + uuid(1, 2) + "07" + "6f7264657273" + "04" + "00000000" + "00000001" + "00000002" + "00"
            + "02" + uuid(5, 6) + "05" + "676f6e65" + "00" // DeletingTopics: gone
            + "00"; // no tagged fields

    private static String uuid(long most, long least) {
        return String.format("%016x%016x", most, least);
    }

    private static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder();
        for (byte b : bytes) {
            hex.append(String.format("%02x", b));
        }
        return hex.toString();
    }

    @Test
    void theRecordIsKafkasByteForByte() {
        Map<ByteBuffer, byte[]> records = ShareGroupRecords.snapshot(group());
        assertThat(records).as("no epoch records for a group no member joined, as Kafka writes none").hasSize(1);
        Map.Entry<ByteBuffer, byte[]> record = records.entrySet().iterator().next();
        assertThat(hex(bytes(record.getKey()))).isEqualTo(KEY);
        assertThat(hex(record.getValue())).isEqualTo(VALUE);

        ByteBuffer key = record.getKey().duplicate();
        key.getShort();
        assertThat(new ShareGroupStatePartitionMetadataKey(new ByteBufferAccessor(key), (short) 0).groupId())
                .isEqualTo("g");
        ByteBuffer value = ByteBuffer.wrap(record.getValue());
        value.getShort();
        assertThat(new ShareGroupStatePartitionMetadataValue(new ByteBufferAccessor(value), (short) 0))
                .isEqualTo(new ShareGroupStatePartitionMetadataValue()
                        .setInitializingTopics(List.of(kafkaTopic(INITIALIZING, "new", List.of(5))))
                        .setInitializedTopics(List.of(kafkaTopic(INITIALIZED, "orders", List.of(0, 1, 2))))
                        .setDeletingTopics(List.of(new ShareGroupStatePartitionMetadataValue.TopicInfo()
                                .setTopicId(new Uuid(5, 6)).setTopicName("gone"))));
    }

    @Test
    void theRecordAloneMakesTheGroupOnReplayAndItsTombstoneRemovesIt() {
        ShareGroup original = group();
        Map<ByteBuffer, byte[]> records = ShareGroupRecords.snapshot(original);
        ShareGroupRecords.Replay replay = new ShareGroupRecords.Replay();
        ShareGroupRecordsTest.replay(replay, records);
        ShareGroup loaded = replay.groups().get("g");
        assertThat(loaded.groupEpoch).as("a new group's, as Kafka's replay makes it")
                .isEqualTo(ConsumerGroup.NEW_GROUP_EPOCH);
        assertThat(loaded.state()).isEqualTo(ShareGroup.State.EMPTY);
        assertThat(loaded.statePartitions.initialized).isEqualTo(original.statePartitions.initialized);
        assertThat(loaded.statePartitions.initializing).isEqualTo(original.statePartitions.initializing);
        assertThat(loaded.statePartitions.deleting).isEqualTo(Map.of(DELETING, "gone"));
        assertThat(ConsumerGroupRecords.diff(loaded.written, ShareGroupRecords.snapshot(loaded)))
                .as("the same bytes again").isEmpty();

        ShareGroupRecordsTest.replay(replay, ConsumerGroupRecords.diff(records, Map.of()));
        assertThat(replay.groups()).isEmpty();
    }

    @Test
    void aMemberJoiningAddsTheEpochRecordsBeforeRecord15AndItsTombstoneKeepsTheGroup() {
        ShareGroup group = group();
        Map<ByteBuffer, byte[]> before = ShareGroupRecords.snapshot(group);
        group.groupEpoch = 2;
        group.assignmentEpoch = 2;
        ShareGroupMember member = new ShareGroupMember("m");
        member.memberEpoch = 2;
        member.subscribedTopicNames = List.of("orders");
        group.members.put("m", member);
        Map<ByteBuffer, byte[]> after = ShareGroupRecords.snapshot(group);
        assertThat(after.keySet()).extracting(key -> key.getShort(0)).containsExactly(
                ShareGroupRecords.MEMBER_METADATA, ShareGroupRecords.METADATA,
                ShareGroupRecords.TARGET_ASSIGNMENT_MEMBER, ShareGroupRecords.TARGET_ASSIGNMENT_METADATA,
                ShareGroupRecords.CURRENT_MEMBER_ASSIGNMENT, ShareGroupRecords.STATE_PARTITION_METADATA);

        ShareGroupRecords.Replay replay = new ShareGroupRecords.Replay();
        ShareGroupRecordsTest.replay(replay, before);
        ShareGroupRecordsTest.replay(replay, ConsumerGroupRecords.diff(before, after));
        group.statePartitions = null;
        ShareGroupRecordsTest.replay(replay, ConsumerGroupRecords.diff(after, ShareGroupRecords.snapshot(group)));
        ShareGroup loaded = replay.groups().get("g");
        assertThat(loaded.statePartitions).isNull();
        assertThat(loaded.members).containsOnlyKeys("m");
        assertThat(loaded.groupEpoch).isEqualTo(2);
    }

    @Test
    void initializingPartitionsAlreadyInitializedChangesNothingAndNewOnesAreAdded() {
        ShareGroupStatePartitions state = new ShareGroup("g").statePartitions();
        state.initialize(INITIALIZED, "orders", List.of(0, 1));
        ShareGroupStatePartitions.Topic before = state.initialized.get(INITIALIZED);

        state.initialize(INITIALIZED, "orders", List.of(1, 0));
        assertThat(state.initialized.get(INITIALIZED)).as("a heartbeat's unchanged topic").isSameAs(before);

        state.initialize(INITIALIZED, "orders", List.of(2));
        assertThat(state.initialized.get(INITIALIZED).partitions()).containsExactly(0, 1, 2);
    }

    /**
     * A heartbeat's subscribed topics: what has no state is to be initialized, and is initializing until the share
     * coordinator answers (then initialized) or fails (then asked for again); an initialization that takes longer
     * than the retry interval is asked for again, as Kafka's subscribedTopicsChangeMap has it.
     */
    @Test
    void subscribedPartitionsAreInitializingUntilAnsweredAndAskedForAgainAfterTheRetryInterval() {
        ShareGroupStatePartitions state = new ShareGroup("g").statePartitions();
        Map<UUID, Integer> orders = Map.of(INITIALIZED, 3);
        Map<UUID, ShareGroupStatePartitions.Topic> needed = state.toInitialize(orders, NAMES, 0, 30_000);
        assertThat(needed.get(INITIALIZED).partitions()).containsExactly(0, 1, 2);
        state.startInitializing(INITIALIZED, "orders", needed.get(INITIALIZED).partitions(), 0);
        assertThat(state.toInitialize(orders, NAMES, 29_999, 30_000)).as("initializing since less than the interval")
                .isEmpty();
        assertThat(state.toInitialize(orders, NAMES, 30_000, 30_000).get(INITIALIZED).partitions())
                .as("asked for again").containsExactly(0, 1, 2);

        state.initialize(INITIALIZED, "orders", List.of(0, 1));
        assertThat(state.initializedOf(INITIALIZED)).containsExactly(0, 1);
        assertThat(state.initializing.get(INITIALIZED).partitions()).containsExactly(2);
        state.withoutInitializing(INITIALIZED, List.of(2)); // its initialization failed
        assertThat(state.initializing).isEmpty();
        assertThat(state.toInitialize(orders, NAMES, 1, 30_000).get(INITIALIZED).partitions()).containsExactly(2);

        state.initialize(INITIALIZED, "orders", List.of(2));
        assertThat(state.toInitialize(orders, NAMES, 2, 30_000)).as("all there").isEmpty();
        Map<UUID, Integer> grown = Map.of(INITIALIZED, 4);
        assertThat(state.toInitialize(grown, NAMES, 3, 30_000).get(INITIALIZED).partitions()).as("a partition added")
                .containsExactly(3);

        state.deleting.put(DELETING, "back");
        state.startInitializing(DELETING, "back", List.of(0), 4);
        assertThat(state.deleting).as("initializing again, no longer deleting").isEmpty();
    }
}
