package io.minibroker.broker.group;

import io.netty.buffer.Unpooled;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupTargetAssignmentMetadataValue;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer group's records as Kafka 4.3.1's generated record classes read them (the layouts of
 * {@code __consumer_offsets}), and read back by the replay into the same group.
 */
class ConsumerGroupRecordsKafkaTest {

    private static final UUID TOPIC = new UUID(3, 4);

    private static ConsumerGroup group() {
        ConsumerGroup group = new ConsumerGroup("g");
        group.groupEpoch = 7;
        group.metadataHash = 0x1234_5678_9abc_def0L;
        group.assignmentEpoch = 6;
        ConsumerGroupMember member = new ConsumerGroupMember("m1");
        member.instanceId = "i1";
        member.rackId = "r1";
        member.clientId = "client";
        member.clientHost = "/127.0.0.1";
        member.subscribedTopicNames = List.of("a", "b");
        member.subscribedTopicRegex = "x.*";
        member.rebalanceTimeoutMs = 30_000;
        member.serverAssignor = "range";
        member.memberEpoch = 6;
        member.previousMemberEpoch = 5;
        member.state = MemberState.UNREVOKED_PARTITIONS;
        member.assignedPartitions = TopicAssignment.copyOf(Map.of(TOPIC, Set.of(0, 2)));
        member.partitionsPendingRevocation = TopicAssignment.copyOf(Map.of(TOPIC, Set.of(1)));
        member.assignmentEpochs = Map.of(TOPIC, Map.of(0, 4, 1, 3)); // partition 2 at the member's epoch, 6
        group.add(member);
        group.targetAssignment.put("m1", TopicAssignment.copyOf(Map.of(TOPIC, Set.of(0, 2, 3))));
        return group;
    }

    /** The record of this type in the snapshot: its key (after the type) and value (after the version). */
    private static ByteBuffer[] record(Map<ByteBuffer, byte[]> records, short type) {
        for (Map.Entry<ByteBuffer, byte[]> entry : records.entrySet()) {
            ByteBuffer key = entry.getKey().duplicate();
            if (key.getShort() == type) {
                ByteBuffer value = ByteBuffer.wrap(entry.getValue());
                assertThat(value.getShort()).as("value version").isZero();
                return new ByteBuffer[] {key, value};
            }
        }
        throw new AssertionError("no record of type " + type);
    }

    @Test
    void kafkaReadsEveryRecord() {
        Map<ByteBuffer, byte[]> records = ConsumerGroupRecords.snapshot(group());
        assertThat(records).hasSize(5);

        ByteBuffer[] metadata = record(records, ConsumerGroupRecords.METADATA);
        assertThat(new ConsumerGroupMetadataKey(new ByteBufferAccessor(metadata[0]), (short) 0).groupId())
                .isEqualTo("g");
        ConsumerGroupMetadataValue metadataValue =
                new ConsumerGroupMetadataValue(new ByteBufferAccessor(metadata[1]), (short) 0);
        assertThat(metadataValue.epoch()).isEqualTo(7);
        assertThat(metadataValue.metadataHash()).as("KIP-1101's tagged field").isEqualTo(0x1234_5678_9abc_def0L);

        ByteBuffer[] member = record(records, ConsumerGroupRecords.MEMBER_METADATA);
        ConsumerGroupMemberMetadataKey memberKey =
                new ConsumerGroupMemberMetadataKey(new ByteBufferAccessor(member[0]), (short) 0);
        assertThat(memberKey.groupId()).isEqualTo("g");
        assertThat(memberKey.memberId()).isEqualTo("m1");
        ConsumerGroupMemberMetadataValue memberValue =
                new ConsumerGroupMemberMetadataValue(new ByteBufferAccessor(member[1]), (short) 0);
        assertThat(memberValue.instanceId()).isEqualTo("i1");
        assertThat(memberValue.rackId()).isEqualTo("r1");
        assertThat(memberValue.clientId()).isEqualTo("client");
        assertThat(memberValue.clientHost()).isEqualTo("/127.0.0.1");
        assertThat(memberValue.subscribedTopicNames()).containsExactly("a", "b");
        assertThat(memberValue.subscribedTopicRegex()).isEqualTo("x.*");
        assertThat(memberValue.rebalanceTimeoutMs()).isEqualTo(30_000);
        assertThat(memberValue.serverAssignor()).isEqualTo("range");

        ByteBuffer[] target = record(records, ConsumerGroupRecords.TARGET_ASSIGNMENT_MEMBER);
        ConsumerGroupTargetAssignmentMemberValue targetValue =
                new ConsumerGroupTargetAssignmentMemberValue(new ByteBufferAccessor(target[1]), (short) 0);
        assertThat(targetValue.topicPartitions()).singleElement().satisfies(tp -> {
            assertThat(tp.topicId()).isEqualTo(new Uuid(3, 4));
            assertThat(tp.partitions()).containsExactly(0, 2, 3);
        });
        assertThat(new ConsumerGroupTargetAssignmentMetadataValue(new ByteBufferAccessor(
                record(records, ConsumerGroupRecords.TARGET_ASSIGNMENT_METADATA)[1]), (short) 0).assignmentEpoch())
                .isEqualTo(6);

        ByteBuffer[] current = record(records, ConsumerGroupRecords.CURRENT_MEMBER_ASSIGNMENT);
        assertThat(new ConsumerGroupCurrentMemberAssignmentKey(new ByteBufferAccessor(current[0]), (short) 0)
                .memberId()).isEqualTo("m1");
        ConsumerGroupCurrentMemberAssignmentValue currentValue =
                new ConsumerGroupCurrentMemberAssignmentValue(new ByteBufferAccessor(current[1]), (short) 0);
        assertThat(currentValue.memberEpoch()).isEqualTo(6);
        assertThat(currentValue.previousMemberEpoch()).isEqualTo(5);
        assertThat(currentValue.state()).isEqualTo((byte) 1);
        assertThat(currentValue.assignedPartitions().get(0).partitions()).containsExactly(0, 2);
        assertThat(currentValue.assignedPartitions().get(0).assignmentEpochs()).containsExactly(4, 6);
        assertThat(currentValue.partitionsPendingRevocation().get(0).partitions()).containsExactly(1);
        assertThat(currentValue.partitionsPendingRevocation().get(0).assignmentEpochs()).containsExactly(3);
    }

    @Test
    void theReplayRebuildsTheGroupAndATombstoneRemovesAMember() {
        ConsumerGroup original = group();
        Map<ByteBuffer, byte[]> records = ConsumerGroupRecords.snapshot(original);
        ConsumerGroupRecords.Replay replay = new ConsumerGroupRecords.Replay();
        records.forEach((key, value) -> apply(replay, key, value));
        ConsumerGroup loaded = replay.groups().get("g");
        assertThat(loaded.groupEpoch).isEqualTo(7);
        assertThat(loaded.metadataHash).isEqualTo(0x1234_5678_9abc_def0L);
        assertThat(loaded.assignmentEpoch).isEqualTo(6);
        assertThat(loaded.targetOf("m1")).isEqualTo(original.targetOf("m1"));
        ConsumerGroupMember member = loaded.members.get("m1");
        assertThat(member.state).isEqualTo(MemberState.UNREVOKED_PARTITIONS);
        assertThat(member.partitionsPendingRevocation).isEqualTo(Map.of(TOPIC, Set.of(1)));
        assertThat(List.of(member.assignmentEpoch(TOPIC, 0), member.assignmentEpoch(TOPIC, 1),
                member.assignmentEpoch(TOPIC, 2))).as("the assignment epochs").containsExactly(4, 3, 6);
        assertThat(loaded.staticMember("i1")).isSameAs(member);
        assertThat(ConsumerGroupRecords.diff(loaded.written, ConsumerGroupRecords.snapshot(loaded)))
                .as("nothing to write again after a load").isEmpty();

        original.remove("m1");
        ConsumerGroupRecords.diff(records, ConsumerGroupRecords.snapshot(original))
                .forEach((key, value) -> apply(replay, key, value));
        assertThat(replay.groups().get("g").members).isEmpty();
    }

    private static void apply(ConsumerGroupRecords.Replay replay, ByteBuffer key, byte[] value) {
        io.netty.buffer.ByteBuf keyBuf = Unpooled.wrappedBuffer(key.duplicate());
        short type = keyBuf.readShort();
        replay.apply(type, keyBuf, value == null ? null : Unpooled.wrappedBuffer(value));
    }

    /** A hash of 0 (no subscribed topic exists) is left out, as Kafka leaves a tagged field at its default. */
    @Test
    void aZeroHashIsNotWrittenAndKafkasRecordWithoutOneReadsAsZero() {
        ConsumerGroup group = group();
        group.metadataHash = 0;
        ByteBuffer[] metadata = record(ConsumerGroupRecords.snapshot(group), ConsumerGroupRecords.METADATA);
        assertThat(metadata[1].remaining()).as("the epoch and an empty tagged-field count only").isEqualTo(5);
        ConsumerGroupMetadataValue read = new ConsumerGroupMetadataValue(new ByteBufferAccessor(metadata[1]),
                (short) 0);
        assertThat(read.epoch()).isEqualTo(7);
        assertThat(read.metadataHash()).isZero();

        ConsumerGroupRecords.Replay replay = new ConsumerGroupRecords.Replay();
        ConsumerGroup hashed = group();
        ConsumerGroupRecords.snapshot(hashed).forEach((key, value) -> apply(replay, key, value));
        ConsumerGroupRecords.snapshot(group).forEach((key, value) -> apply(replay, key, value));
        assertThat(replay.groups().get("g").metadataHash).as("the later record's, without the field").isZero();
    }
}
