package io.minibroker.broker.group;

import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;

import static io.minibroker.broker.group.ConsumerGroupRecords.bytes;
import static io.minibroker.broker.group.ConsumerGroupRecords.checkVersion;
import static io.minibroker.broker.group.ConsumerGroupRecords.key;
import static io.minibroker.broker.group.ConsumerGroupRecords.readCompactString;
import static io.minibroker.broker.group.ConsumerGroupRecords.readPartitions;
import static io.minibroker.protocol.types.Wire.skipTaggedFields;
import static io.minibroker.broker.group.ConsumerGroupRecords.writeCompactString;
import static io.minibroker.broker.group.ConsumerGroupRecords.writePartitions;

/**
 * A share group's records in {@code __consumer_offsets}, in Kafka's layouts (the group coordinator's
 * ShareGroup*Key/Value specs), so that the group survives a restart or a coordinator's failover:
 * ShareGroupMemberMetadata (type 10: a member's rack, client and subscription), ShareGroupMetadata (11: the group
 * epoch and the topics' metadata hash), ShareGroupTargetAssignmentMetadata (12: the assignment epoch),
 * ShareGroupTargetAssignmentMember (13: a member's target) and ShareGroupCurrentMemberAssignment (14: a member's
 * epochs, state and partitions) and ShareGroupStatePartitionMetadata (15: the topics whose share partitions the
 * group has state for, {@link ShareGroupStatePartitions}), which comes last, as in Kafka's batches. Keys and values
 * are framed as {@link ConsumerGroupRecords}' are. A group no member has joined yet (made by AlterShareGroupOffsets)
 * has no epoch records, as in Kafka: record 15 alone makes it on replay. Not written: ShareGroupPartitionMetadata
 * (9, gone from Kafka 4.1), skipped on replay. The metadata hash is the subscribed topics' {@link MetadataHash}, as
 * for consumer groups (here a field of its own, not a tagged one).
 */
final class ShareGroupRecords {

    static final short PARTITION_METADATA = 9;
    static final short MEMBER_METADATA = 10;
    static final short METADATA = 11;
    static final short TARGET_ASSIGNMENT_METADATA = 12;
    static final short TARGET_ASSIGNMENT_MEMBER = 13;
    static final short CURRENT_MEMBER_ASSIGNMENT = 14;
    static final short STATE_PARTITION_METADATA = 15;
    private static final short VALUE_VERSION = 0;

    private ShareGroupRecords() {
    }

    static boolean isShareGroupRecord(short keyType) {
        return keyType >= PARTITION_METADATA && keyType <= STATE_PARTITION_METADATA;
    }

    /** Every record of the group as it is now, by key bytes, in the order Kafka writes a new member's. */
    static Map<ByteBuffer, byte[]> snapshot(ShareGroup group) {
        Map<ByteBuffer, byte[]> records = new LinkedHashMap<>();
        for (ShareGroupMember member : group.members.values()) {
            records.put(key(MEMBER_METADATA, group.groupId, member.memberId), memberMetadata(member));
        }
        if (group.groupEpoch > ConsumerGroup.NEW_GROUP_EPOCH) { // a group no heartbeat has bumped has no epoch records
            records.put(key(METADATA, group.groupId, null), groupMetadata(group.groupEpoch, group.metadataHash));
        }
        for (ShareGroupMember member : group.members.values()) {
            ByteBuf target = Unpooled.buffer();
            target.writeShort(VALUE_VERSION);
            writePartitions(target, group.targetOf(member.memberId));
            Wire.writeUnsignedVarint(target, 0);
            records.put(key(TARGET_ASSIGNMENT_MEMBER, group.groupId, member.memberId), bytes(target));
        }
        if (group.groupEpoch > ConsumerGroup.NEW_GROUP_EPOCH) {
            records.put(key(TARGET_ASSIGNMENT_METADATA, group.groupId, null),
                    ConsumerGroupRecords.epochValue(group.assignmentEpoch));
        }
        for (ShareGroupMember member : group.members.values()) {
            records.put(key(CURRENT_MEMBER_ASSIGNMENT, group.groupId, member.memberId), currentValue(member));
        }
        if (group.statePartitions != null) {
            records.put(key(STATE_PARTITION_METADATA, group.groupId, null), statePartitions(group.statePartitions));
        }
        return records;
    }

    /** The group as its records give it (what a load gives), or null if they hold none; by key bytes. */
    static ShareGroup rebuild(String groupId, Map<ByteBuffer, byte[]> records) {
        Replay replay = new Replay();
        ReplayedRecords.replay(records, replay::apply);
        return replay.groups().get(groupId);
    }

    /** Whether the member's own records (its subscription, its epochs and partitions) are as the group wrote them. */
    static boolean isAsWritten(ShareGroup group, ShareGroupMember member) {
        return ConsumerGroupRecords.changed(group.written, Map.of(key(MEMBER_METADATA, group.groupId,
                member.memberId), memberMetadata(member), key(CURRENT_MEMBER_ASSIGNMENT, group.groupId,
                member.memberId), currentValue(member))).isEmpty();
    }

    /**
     * ShareGroupStatePartitionMetadataValue v0 (flexible): InitializingTopics and InitializedTopics (each a topic's
     * id, name and partitions), then DeletingTopics (id and name).
     */
    static byte[] statePartitions(ShareGroupStatePartitions state) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        writeStateTopics(value, state.initializing);
        writeStateTopics(value, state.initialized);
        Wire.writeUnsignedVarint(value, state.deleting.size() + 1);
        state.deleting.forEach((topicId, name) -> {
            Wire.writeUuid(value, topicId);
            writeCompactString(value, name);
            Wire.writeUnsignedVarint(value, 0);
        });
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    private static void writeStateTopics(ByteBuf value, Map<UUID, ShareGroupStatePartitions.Topic> topics) {
        Wire.writeUnsignedVarint(value, topics.size() + 1);
        topics.forEach((topicId, topic) -> {
            Wire.writeUuid(value, topicId);
            writeCompactString(value, topic.name());
            Wire.writeUnsignedVarint(value, topic.partitions().size() + 1);
            topic.partitions().forEach(value::writeInt);
            Wire.writeUnsignedVarint(value, 0);
        });
    }

    private static ShareGroupStatePartitions readStatePartitions(ByteBuf value) {
        ShareGroupStatePartitions state = new ShareGroupStatePartitions();
        readStateTopics(value, state.initializing);
        readStateTopics(value, state.initialized);
        int deleting = Wire.readUnsignedVarint(value) - 1;
        for (int i = 0; i < deleting; i++) {
            UUID topicId = Wire.readUuid(value);
            state.deleting.put(topicId, readCompactString(value));
            skipTaggedFields(value);
        }
        return state;
    }

    private static void readStateTopics(ByteBuf value, Map<UUID, ShareGroupStatePartitions.Topic> topics) {
        int count = Wire.readUnsignedVarint(value) - 1;
        for (int i = 0; i < count; i++) {
            UUID topicId = Wire.readUuid(value);
            String name = readCompactString(value);
            int partitions = Wire.readUnsignedVarint(value) - 1;
            SortedSet<Integer> numbers = new TreeSet<>();
            for (int p = 0; p < partitions; p++) {
                numbers.add(value.readInt());
            }
            skipTaggedFields(value);
            topics.put(topicId, new ShareGroupStatePartitions.Topic(name, numbers));
        }
    }

    private static byte[] groupMetadata(int epoch, long metadataHash) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(epoch);
        value.writeLong(metadataHash);
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    private static byte[] memberMetadata(ShareGroupMember member) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        writeCompactString(value, member.rackId);
        writeCompactString(value, member.clientId);
        writeCompactString(value, member.clientHost);
        Wire.writeUnsignedVarint(value, member.subscribedTopicNames.size() + 1);
        member.subscribedTopicNames.forEach(name -> writeCompactString(value, name));
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    private static byte[] currentValue(ShareGroupMember member) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(member.memberEpoch);
        value.writeInt(member.previousMemberEpoch);
        value.writeByte(ShareGroupMember.STABLE);
        writePartitions(value, member.assignedPartitions);
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    /**
     * What a replay finds of share groups, the last record of each key winning; the group's metadata tombstone
     * deletes it, a member's metadata tombstone removes the member. Record 15 makes a group, as Kafka's replay of
     * it does.
     */
    static final class Replay {
        private final Map<String, ShareGroup> groups = new LinkedHashMap<>();
        private final ReplayedRecords written = new ReplayedRecords();

        /**
         * Applies one record; {@code key} is positioned after its type. A tombstone that leaves a group without
         * records deletes it (one that AlterShareGroupOffsets made has record 15 alone).
         */
        void apply(short type, ByteBuf key, ByteBuf value) {
            if (type == PARTITION_METADATA) {
                return; // not kept here (see the class comment)
            }
            String groupId = GroupMetadataRecord.readString(key);
            boolean memberKey = type == MEMBER_METADATA || type == TARGET_ASSIGNMENT_MEMBER
                    || type == CURRENT_MEMBER_ASSIGNMENT;
            String memberId = memberKey ? GroupMetadataRecord.readString(key) : null;
            ByteBuffer keyBytes = key(type, groupId, memberId);
            if (value == null) {
                ShareGroup group = groups.get(groupId);
                if (written.groupGoneWith(groupId, keyBytes, type == METADATA)) {
                    groups.remove(groupId);
                } else if (group != null && type == MEMBER_METADATA) {
                    group.members.remove(memberId);
                    group.targetAssignment.remove(memberId);
                } else if (group != null && type == STATE_PARTITION_METADATA) {
                    group.statePartitions = null;
                }
                return;
            }
            written.put(groupId, keyBytes, value);
            ShareGroup group = groups.computeIfAbsent(groupId, ShareGroup::new);
            checkVersion(value, type);
            switch (type) {
                case METADATA -> {
                    group.groupEpoch = value.readInt();
                    group.metadataHash = value.readLong();
                }
                case TARGET_ASSIGNMENT_METADATA -> group.assignmentEpoch = value.readInt();
                case TARGET_ASSIGNMENT_MEMBER -> group.targetAssignment.put(memberId, readPartitions(value));
                case STATE_PARTITION_METADATA -> group.statePartitions = readStatePartitions(value);
                case MEMBER_METADATA -> {
                    ShareGroupMember member = member(group, memberId);
                    member.rackId = readCompactString(value);
                    member.clientId = readCompactString(value);
                    member.clientHost = readCompactString(value);
                    int topics = Wire.readUnsignedVarint(value) - 1;
                    List<String> names = new ArrayList<>();
                    for (int i = 0; i < topics; i++) {
                        names.add(readCompactString(value));
                    }
                    member.subscribedTopicNames = List.copyOf(names);
                }
                case CURRENT_MEMBER_ASSIGNMENT -> {
                    ShareGroupMember member = member(group, memberId);
                    member.memberEpoch = value.readInt();
                    member.previousMemberEpoch = value.readInt();
                    value.readByte(); // the state: always stable
                    member.assignedPartitions = readPartitions(value);
                }
                default -> {
                }
            }
        }

        private static ShareGroupMember member(ShareGroup group, String memberId) {
            return group.members.computeIfAbsent(memberId, ShareGroupMember::new);
        }

        /** The groups read, each with the records it was rebuilt from. */
        Map<String, ShareGroup> groups() {
            groups.forEach((groupId, group) -> group.written = written.of(groupId));
            return groups;
        }
    }
}
