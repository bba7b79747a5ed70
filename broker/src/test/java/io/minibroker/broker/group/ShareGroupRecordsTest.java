package io.minibroker.broker.group;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.ShareGroupMetadataValue;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** A share group's records written by {@link ShareGroupRecords#snapshot} and read back by its replay. */
class ShareGroupRecordsTest {

    private static final UUID TOPIC = new UUID(7, 9);

    private static ShareGroup group() {
        ShareGroup group = new ShareGroup("g");
        group.groupEpoch = 5;
        group.metadataHash = -0x0fed_cba9_8765_4321L;
        group.assignmentEpoch = 5;
        ShareGroupMember member = new ShareGroupMember("m1");
        member.memberEpoch = 5;
        member.previousMemberEpoch = 3;
        member.rackId = "r1";
        member.clientId = "c";
        member.clientHost = "/127.0.0.1";
        member.subscribedTopicNames = List.of("t");
        member.assignedPartitions = TopicAssignment.copyOf(Map.of(TOPIC, Set.of(0, 2))); // sorted, as the coordinator keeps them
        group.members.put("m1", member);
        group.targetAssignment.put("m1", TopicAssignment.copyOf(Map.of(TOPIC, Set.of(0, 2))));
        return group;
    }

    static void replay(ShareGroupRecords.Replay replay, Map<ByteBuffer, byte[]> records) {
        records.forEach((key, value) -> {
            ByteBuf keyBuf = Unpooled.wrappedBuffer(key.duplicate());
            short type = keyBuf.readShort();
            assertThat(ShareGroupRecords.isShareGroupRecord(type)).isTrue();
            replay.apply(type, keyBuf, value == null ? null : Unpooled.wrappedBuffer(value));
        });
    }

    @Test
    void aGroupComesBackAsItWasWritten() {
        Map<ByteBuffer, byte[]> records = ShareGroupRecords.snapshot(group());
        assertThat(records.keySet()).extracting(key -> key.getShort(0)).containsExactly(
                ShareGroupRecords.MEMBER_METADATA, ShareGroupRecords.METADATA,
                ShareGroupRecords.TARGET_ASSIGNMENT_MEMBER, ShareGroupRecords.TARGET_ASSIGNMENT_METADATA,
                ShareGroupRecords.CURRENT_MEMBER_ASSIGNMENT);
        ShareGroupRecords.Replay replay = new ShareGroupRecords.Replay();
        replay(replay, records);
        ShareGroup back = replay.groups().get("g");
        assertThat(back.groupEpoch).isEqualTo(5);
        assertThat(back.metadataHash).isEqualTo(-0x0fed_cba9_8765_4321L);
        assertThat(back.assignmentEpoch).isEqualTo(5);
        ShareGroupMember member = back.members.get("m1");
        assertThat(member.memberEpoch).isEqualTo(5);
        assertThat(member.previousMemberEpoch).isEqualTo(3);
        assertThat(member.rackId).isEqualTo("r1");
        assertThat(member.clientHost).isEqualTo("/127.0.0.1");
        assertThat(member.subscribedTopicNames).containsExactly("t");
        assertThat(member.assignedPartitions).isEqualTo(Map.of(TOPIC, Set.of(0, 2)));
        assertThat(back.targetOf("m1")).isEqualTo(Map.of(TOPIC, Set.of(0, 2)));
        assertThat(ConsumerGroupRecords.diff(records, ShareGroupRecords.snapshot(back))).as("the same bytes again")
                .isEmpty();
    }

    /** Kafka 4.3.1's generated ShareGroupMetadataValue reads the epoch and the subscribed topics' metadata hash. */
    @Test
    void kafkaReadsTheGroupsMetadataHash() {
        byte[] value = ShareGroupRecords.snapshot(group()).entrySet().stream()
                .filter(record -> record.getKey().getShort(0) == ShareGroupRecords.METADATA)
                .findFirst().orElseThrow().getValue();
        ByteBuffer buffer = ByteBuffer.wrap(value);
        assertThat(buffer.getShort()).as("value version").isZero();
        ShareGroupMetadataValue read = new ShareGroupMetadataValue(new ByteBufferAccessor(buffer), (short) 0);
        assertThat(read.epoch()).isEqualTo(5);
        assertThat(read.metadataHash()).isEqualTo(-0x0fed_cba9_8765_4321L);
    }

    @Test
    void tombstonesRemoveAMemberAndThenTheGroup() {
        ShareGroup group = group();
        Map<ByteBuffer, byte[]> written = ShareGroupRecords.snapshot(group);
        ShareGroupRecords.Replay replay = new ShareGroupRecords.Replay();
        replay(replay, written);
        group.members.clear();
        group.targetAssignment.clear();
        group.groupEpoch = 6;
        Map<ByteBuffer, byte[]> memberGone = ConsumerGroupRecords.diff(written, ShareGroupRecords.snapshot(group));
        replay(replay, memberGone);
        assertThat(replay.groups().get("g").members).isEmpty();
        assertThat(replay.groups().get("g").groupEpoch).isEqualTo(6);
        replay(replay, ConsumerGroupRecords.diff(ShareGroupRecords.snapshot(group), Map.of()));
        assertThat(replay.groups()).isEmpty();
    }
}
