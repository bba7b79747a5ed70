package io.minibroker.broker.group;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupCurrentMemberAssignmentValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMemberMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMemberValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTargetAssignmentMetadataValue;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyKey;
import org.apache.kafka.coordinator.group.generated.StreamsGroupTopologyValue;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streams group's records as Kafka 4.3.1's generated record classes read them (the layouts of
 * {@code __consumer_offsets}), and read back by the replay into the same group.
 */
class StreamsGroupRecordsKafkaTest {

    private static StreamsTopology topology() {
        StreamsTopology.Subtopology join = new StreamsTopology.Subtopology("0", List.of("left", "right"),
                List.of("app-sink"),
                List.of(new StreamsTopology.TopicInfo("app-repartition", 4, (short) 1, Map.of())),
                List.of(new StreamsTopology.TopicInfo("app-changelog", 0, (short) 0,
                        Map.of("cleanup.policy", "compact"))),
                List.of(Set.of("right", "app-repartition")));
        return new StreamsTopology(2, new TreeMap<>(Map.of("0", join)));
    }

    private static StreamsGroup group() {
        StreamsGroup group = new StreamsGroup("app");
        group.groupEpoch = 7;
        group.metadataHash = 0x0102_0304_0506_0708L;
        group.assignmentEpoch = 6;
        group.validatedTopologyEpoch = 2;
        group.numStandbyReplicas = 1;
        group.topology = topology();
        StreamsGroupMember member = new StreamsGroupMember("m1");
        member.rackId = "r1";
        member.clientId = "client";
        member.clientHost = "/127.0.0.1";
        member.rebalanceTimeoutMs = 30_000;
        member.topologyEpoch = 2;
        member.processId = "p1";
        member.userEndpoint = new StreamsGroupMember.Endpoint("host1", 65_000);
        member.clientTags = Map.of("zone", "a");
        member.memberEpoch = 6;
        member.previousMemberEpoch = 5;
        member.state = StreamsGroupMember.State.UNREVOKED_TASKS;
        member.assignedTasks = new StreamsTasks(Map.of("0", Set.of(0, 2)), Map.of("0", Set.of(3)), Map.of());
        member.tasksPendingRevocation = new StreamsTasks(Map.of("0", Set.of(1)), Map.of(), Map.of("0", Set.of(4)));
        member.activeTaskEpochs = new java.util.HashMap<>(Map.of(new TaskId("0", 0), 4, new TaskId("0", 2), 6,
                new TaskId("0", 1), 3));
        group.members.put("m1", member);
        group.targetAssignment.put("m1", new StreamsTasks(Map.of("0", Set.of(0, 2, 5)), Map.of(), Map.of()));
        return group;
    }

    /** The record of this type in the snapshot: its key (after the type) and value (after the version). */
    private static ByteBufferAccessor[] record(Map<ByteBuffer, byte[]> records, short type) {
        for (Map.Entry<ByteBuffer, byte[]> entry : records.entrySet()) {
            ByteBuffer key = entry.getKey().duplicate();
            if (key.getShort() == type) {
                ByteBuffer value = ByteBuffer.wrap(entry.getValue());
                assertThat(value.getShort()).as("value version").isZero();
                return new ByteBufferAccessor[] {new ByteBufferAccessor(key), new ByteBufferAccessor(value)};
            }
        }
        throw new AssertionError("no record of type " + type);
    }

    @Test
    void kafkaReadsEveryRecord() {
        Map<ByteBuffer, byte[]> records = StreamsGroupRecords.snapshot(group());
        assertThat(records).hasSize(6);

        ByteBufferAccessor[] metadata = record(records, StreamsGroupRecords.METADATA);
        assertThat(new StreamsGroupMetadataKey(metadata[0], (short) 0).groupId()).isEqualTo("app");
        StreamsGroupMetadataValue metadataValue = new StreamsGroupMetadataValue(metadata[1], (short) 0);
        assertThat(metadataValue.epoch()).isEqualTo(7);
        assertThat(metadataValue.metadataHash()).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(metadataValue.validatedTopologyEpoch()).isEqualTo(2);
        assertThat(metadataValue.lastAssignmentConfigs()).singleElement().satisfies(config -> {
            assertThat(config.key()).isEqualTo("num.standby.replicas");
            assertThat(config.value()).isEqualTo("1");
        });

        ByteBufferAccessor[] topology = record(records, StreamsGroupRecords.TOPOLOGY);
        assertThat(new StreamsGroupTopologyKey(topology[0], (short) 0).groupId()).isEqualTo("app");
        StreamsGroupTopologyValue topologyValue = new StreamsGroupTopologyValue(topology[1], (short) 0);
        assertThat(topologyValue.epoch()).isEqualTo(2);
        assertThat(topologyValue.subtopologies()).singleElement().satisfies(subtopology -> {
            assertThat(subtopology.subtopologyId()).isEqualTo("0");
            assertThat(subtopology.sourceTopics()).containsExactly("left", "right");
            assertThat(subtopology.repartitionSinkTopics()).containsExactly("app-sink");
            assertThat(subtopology.repartitionSourceTopics()).singleElement().satisfies(topic -> {
                assertThat(topic.name()).isEqualTo("app-repartition");
                assertThat(topic.partitions()).isEqualTo(4);
                assertThat(topic.replicationFactor()).isEqualTo((short) 1);
            });
            assertThat(subtopology.stateChangelogTopics()).singleElement().satisfies(topic -> {
                assertThat(topic.name()).isEqualTo("app-changelog");
                assertThat(topic.topicConfigs()).singleElement().satisfies(config -> {
                    assertThat(config.key()).isEqualTo("cleanup.policy");
                    assertThat(config.value()).isEqualTo("compact");
                });
            });
            assertThat(subtopology.copartitionGroups()).singleElement().satisfies(copartition -> {
                assertThat(copartition.sourceTopics()).containsExactly((short) 1);
                assertThat(copartition.sourceTopicRegex()).isEmpty();
                assertThat(copartition.repartitionSourceTopics()).containsExactly((short) 0);
            });
        });

        ByteBufferAccessor[] member = record(records, StreamsGroupRecords.MEMBER_METADATA);
        StreamsGroupMemberMetadataKey memberKey = new StreamsGroupMemberMetadataKey(member[0], (short) 0);
        assertThat(memberKey.groupId()).isEqualTo("app");
        assertThat(memberKey.memberId()).isEqualTo("m1");
        StreamsGroupMemberMetadataValue memberValue = new StreamsGroupMemberMetadataValue(member[1], (short) 0);
        assertThat(memberValue.instanceId()).isNull();
        assertThat(memberValue.rackId()).isEqualTo("r1");
        assertThat(memberValue.clientId()).isEqualTo("client");
        assertThat(memberValue.clientHost()).isEqualTo("/127.0.0.1");
        assertThat(memberValue.rebalanceTimeoutMs()).isEqualTo(30_000);
        assertThat(memberValue.topologyEpoch()).isEqualTo(2);
        assertThat(memberValue.processId()).isEqualTo("p1");
        assertThat(memberValue.userEndpoint().host()).isEqualTo("host1");
        assertThat(memberValue.userEndpoint().port()).isEqualTo(65_000);
        assertThat(memberValue.clientTags()).singleElement().satisfies(tag -> {
            assertThat(tag.key()).isEqualTo("zone");
            assertThat(tag.value()).isEqualTo("a");
        });

        StreamsGroupTargetAssignmentMemberValue target = new StreamsGroupTargetAssignmentMemberValue(
                record(records, StreamsGroupRecords.TARGET_ASSIGNMENT_MEMBER)[1], (short) 0);
        assertThat(target.activeTasks()).singleElement().satisfies(tasks -> {
            assertThat(tasks.subtopologyId()).isEqualTo("0");
            assertThat(tasks.partitions()).containsExactly(0, 2, 5);
        });
        assertThat(target.standbyTasks()).isEmpty();
        assertThat(new StreamsGroupTargetAssignmentMetadataValue(
                record(records, StreamsGroupRecords.TARGET_ASSIGNMENT_METADATA)[1], (short) 0).assignmentEpoch())
                .isEqualTo(6);

        ByteBufferAccessor[] current = record(records, StreamsGroupRecords.CURRENT_MEMBER_ASSIGNMENT);
        assertThat(new StreamsGroupCurrentMemberAssignmentKey(current[0], (short) 0).memberId()).isEqualTo("m1");
        StreamsGroupCurrentMemberAssignmentValue currentValue =
                new StreamsGroupCurrentMemberAssignmentValue(current[1], (short) 0);
        assertThat(currentValue.memberEpoch()).isEqualTo(6);
        assertThat(currentValue.previousMemberEpoch()).isEqualTo(5);
        assertThat(currentValue.state()).as("Kafka's MemberState.UNREVOKED_TASKS").isEqualTo((byte) 2);
        assertThat(currentValue.activeTasks().get(0).partitions()).containsExactly(0, 2);
        assertThat(currentValue.activeTasks().get(0).assignmentEpochs()).containsExactly(4, 6);
        assertThat(currentValue.activeTasksPendingRevocation().get(0).assignmentEpochs()).containsExactly(3);
        assertThat(currentValue.standbyTasks().get(0).assignmentEpochs()).isEmpty();
        assertThat(currentValue.standbyTasks().get(0).partitions()).containsExactly(3);
        assertThat(currentValue.activeTasksPendingRevocation().get(0).partitions()).containsExactly(1);
        assertThat(currentValue.warmupTasksPendingRevocation().get(0).partitions()).containsExactly(4);
    }

    @Test
    void theReplayRebuildsTheGroupAndTombstonesRemoveAMemberThenTheGroup() {
        StreamsGroup original = group();
        Map<ByteBuffer, byte[]> records = StreamsGroupRecords.snapshot(original);
        StreamsGroupRecords.Replay replay = new StreamsGroupRecords.Replay();
        records.forEach((key, value) -> apply(replay, key, value));
        StreamsGroup loaded = replay.groups().get("app");
        assertThat(loaded.groupEpoch).isEqualTo(7);
        assertThat(loaded.metadataHash).isEqualTo(0x0102_0304_0506_0708L);
        assertThat(loaded.assignmentEpoch).isEqualTo(6);
        assertThat(loaded.validatedTopologyEpoch).isEqualTo(2);
        assertThat(loaded.numStandbyReplicas).isEqualTo(1);
        assertThat(loaded.topology).isEqualTo(original.topology);
        assertThat(loaded.targetOf("m1")).isEqualTo(original.targetOf("m1"));
        StreamsGroupMember member = loaded.members.get("m1");
        StreamsGroupMember before = original.members.get("m1");
        assertThat(member).usingRecursiveComparison().ignoringFields("sessionToken", "revocationToken")
                .isEqualTo(before);
        assertThat(ConsumerGroupRecords.diff(loaded.written, StreamsGroupRecords.snapshot(loaded)))
                .as("nothing to write again after a load").isEmpty();

        original.members.remove("m1");
        original.targetAssignment.remove("m1");
        Map<ByteBuffer, byte[]> withoutMember = StreamsGroupRecords.snapshot(original);
        ConsumerGroupRecords.diff(records, withoutMember).forEach((key, value) -> apply(replay, key, value));
        assertThat(replay.groups().get("app").members).isEmpty();

        ConsumerGroupRecords.diff(withoutMember, Map.of()).forEach((key, value) -> apply(replay, key, value));
        assertThat(replay.groups()).isEmpty();
    }

    /** A heartbeat that changes only its member's records writes only those, and the group ends as written whole. */
    @Test
    void oneMembersChangeIsWrittenAloneUnlessTheGroupsRecordsChange() {
        StreamsGroup group = group();
        StreamsGroupMember other = new StreamsGroupMember("m2");
        other.processId = "p2";
        group.members.put("m2", other);
        Map<ByteBuffer, byte[]> written = StreamsGroupRecords.snapshot(group);
        StreamsGroupMember member = group.members.get("m1");

        member.state = StreamsGroupMember.State.STABLE;
        member.tasksPendingRevocation = StreamsTasks.EMPTY;
        Map<ByteBuffer, byte[]> changes = GroupRecordChanges.ofOneMember(written,
                StreamsGroupRecords.recordCount(group), StreamsGroupRecords.snapshot(group, List.of(member)),
                StreamsGroupRecords::isMemberRecord);
        assertThat(changes).as("m1's current assignment only").hasSize(1)
                .containsOnlyKeys(ConsumerGroupRecords.key(StreamsGroupRecords.CURRENT_MEMBER_ASSIGNMENT, "app", "m1"));
        Map<ByteBuffer, byte[]> afterwards = new LinkedHashMap<>(written);
        afterwards.putAll(changes);
        assertThat(ConsumerGroupRecords.diff(afterwards, StreamsGroupRecords.snapshot(group))).isEmpty();

        group.groupEpoch++;
        assertThat(GroupRecordChanges.ofOneMember(afterwards, StreamsGroupRecords.recordCount(group),
                StreamsGroupRecords.snapshot(group, List.of(member)), StreamsGroupRecords::isMemberRecord))
                .as("a new group epoch: the whole group is compared").isNull();
        group.members.put("m3", new StreamsGroupMember("m3"));
        assertThat(GroupRecordChanges.ofOneMember(afterwards, StreamsGroupRecords.recordCount(group),
                StreamsGroupRecords.snapshot(group, List.of(member)), StreamsGroupRecords::isMemberRecord))
                .as("another member came").isNull();
    }

    private static void apply(StreamsGroupRecords.Replay replay, ByteBuffer key, byte[] value) {
        ByteBuf keyBuf = Unpooled.wrappedBuffer(key.duplicate());
        short type = keyBuf.readShort();
        replay.apply(type, keyBuf, value == null ? null : Unpooled.wrappedBuffer(value));
    }
}
