package io.minibroker.broker.group;

import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A consumer group's records in {@code __consumer_offsets}, in Kafka's layouts, so that Kafka's tools read them and
 * the group survives a restart or a coordinator's failover: ConsumerGroupMetadata (type 3: the group epoch, and the
 * subscribed topics' {@link MetadataHash} in its tagged field 0, MetadataHash, left out when 0 as Kafka does),
 * ConsumerGroupMemberMetadata (5: a member's subscription; a classic-protocol member's session timeout and
 * protocols in its tagged field 0, ClassicMemberMetadata), ConsumerGroupTargetAssignmentMetadata (6: the
 * assignment epoch), ConsumerGroupTargetAssignmentMember (7: a member's target) and
 * ConsumerGroupCurrentMemberAssignment (8: a member's epochs, state and partitions, each topic's with the epochs
 * they were assigned at in its tagged field 0, AssignmentEpochs). Keys are Kafka's
 * non-flexible coordinator keys (the type as an int16, then int16-length strings); values are version 0 of the
 * flexible value schemas (compact strings and arrays, tagged fields). Kafka 4.1 stopped writing
 * ConsumerGroupPartitionMetadata (type 4), replaced by the metadata hash: it is neither written nor read here.
 *
 * <p>{@link #snapshot} gives a group's records keyed by their key bytes; the coordinator writes what differs
 * from what it wrote last (and tombstones for what is gone). {@link Replay} folds what a replay reads back into
 * groups.
 */
final class ConsumerGroupRecords {

    static final short METADATA = 3;
    /** The tag of a current assignment's AssignmentEpochs (a consumer group's TopicPartitions, a streams group's TaskIds). */
    private static final int ASSIGNMENT_EPOCHS_TAG = 0;
    static final short PARTITION_METADATA = 4;
    static final short MEMBER_METADATA = 5;
    static final short TARGET_ASSIGNMENT_METADATA = 6;
    static final short TARGET_ASSIGNMENT_MEMBER = 7;
    static final short CURRENT_MEMBER_ASSIGNMENT = 8;
    private static final short VALUE_VERSION = 0;
    /** The tag of ConsumerGroupMemberMetadataValue's ClassicMemberMetadata, set for classic-protocol members. */
    private static final int CLASSIC_MEMBER_METADATA_TAG = 0;
    /** The tag of ConsumerGroupMetadataValue's MetadataHash (KIP-1101), written unless 0, its default. */
    private static final int METADATA_HASH_TAG = 0;

    private ConsumerGroupRecords() {
    }

    static boolean isConsumerGroupRecord(short keyType) {
        return keyType >= METADATA && keyType <= CURRENT_MEMBER_ASSIGNMENT;
    }

    /** Every record of the group as it is now, by key bytes, in the order Kafka writes a new member's. */
    static Map<ByteBuffer, byte[]> snapshot(ConsumerGroup group) {
        return snapshot(group, group.allMembers());
    }

    /**
     * The group's two epoch records and the records of these of its members (three each), as {@link #snapshot}
     * gives them: what one member's heartbeat can change while the group's members and epochs stay as they are.
     */
    static Map<ByteBuffer, byte[]> snapshot(ConsumerGroup group, Collection<ConsumerGroupMember> members) {
        Map<ByteBuffer, byte[]> records = new LinkedHashMap<>();
        for (ConsumerGroupMember member : members) {
            records.put(key(MEMBER_METADATA, group.groupId, member.memberId), memberMetadata(member));
        }
        records.put(key(METADATA, group.groupId, null), metadataValue(group.groupEpoch, group.metadataHash));
        for (ConsumerGroupMember member : members) {
            records.put(key(TARGET_ASSIGNMENT_MEMBER, group.groupId, member.memberId),
                    targetValue(group.targetOf(member.memberId)));
        }
        records.put(key(TARGET_ASSIGNMENT_METADATA, group.groupId, null), epochValue(group.assignmentEpoch));
        for (ConsumerGroupMember member : members) {
            records.put(key(CURRENT_MEMBER_ASSIGNMENT, group.groupId, member.memberId), currentValue(member));
        }
        return records;
    }

    /** How many records {@link #snapshot} gives for a group of that many members. */
    static int recordCount(int members) {
        return 3 * members + 2;
    }

    /**
     * The records to write to get from {@code written} to {@code now}: changed values, then tombstones (null values)
     * for keys no longer there, in Kafka's order of a member's removal (assignment, target, then metadata).
     */
    static Map<ByteBuffer, byte[]> diff(Map<ByteBuffer, byte[]> written, Map<ByteBuffer, byte[]> now) {
        Map<ByteBuffer, byte[]> changes = changed(written, now);
        List<ByteBuffer> gone = new ArrayList<>();
        written.keySet().forEach(key -> {
            if (!now.containsKey(key)) {
                gone.add(key);
            }
        });
        gone.sort((a, b) -> Short.compare(b.getShort(0), a.getShort(0)));
        gone.forEach(key -> changes.put(key, null));
        return changes;
    }

    /**
     * What deleting the group writes of its own: a tombstone for each record it wrote, after the one for the classic
     * group's metadata while the group has not yet written the tombstone of the classic group it took the id of
     * ({@link #replacedClassicMetadata}), so that the classic group does not come back on the next replay.
     */
    static Map<ByteBuffer, byte[]> tombstones(ConsumerGroup group) {
        Map<ByteBuffer, byte[]> tombstones = replacedClassicMetadata(group);
        tombstones.putAll(diff(group.written, Map.of()));
        return tombstones;
    }

    /**
     * The tombstone of the classic group's metadata record while {@link ConsumerGroup#replacesClassicGroup} (Kafka
     * writes it first, with the consumer group's first records), else nothing.
     */
    static Map<ByteBuffer, byte[]> replacedClassicMetadata(ConsumerGroup group) {
        Map<ByteBuffer, byte[]> tombstone = new LinkedHashMap<>();
        if (group.replacesClassicGroup) {
            tombstone.put(ByteBuffer.wrap(GroupMetadataRecord.key(group.groupId)), null);
        }
        return tombstone;
    }

    /** The records of {@code now} whose value differs from the one {@code written} has (or that it lacks). */
    static Map<ByteBuffer, byte[]> changed(Map<ByteBuffer, byte[]> written, Map<ByteBuffer, byte[]> now) {
        Map<ByteBuffer, byte[]> changes = new LinkedHashMap<>();
        now.forEach((key, value) -> {
            if (!Arrays.equals(written.get(key), value)) {
                changes.put(key, value);
            }
        });
        return changes;
    }

    /**
     * The group as its records give it (what a replay of them gives, a load), or null if they hold none:
     * {@code records} as {@link ConsumerGroup#written} keeps them, by key bytes.
     */
    static ConsumerGroup rebuild(String groupId, Map<ByteBuffer, byte[]> records) {
        Replay replay = new Replay();
        ReplayedRecords.replay(records, replay::apply);
        return replay.groups().get(groupId);
    }

    /**
     * Whether the member's own records (its subscription, its epochs and partitions) are as
     * {@link ConsumerGroup#written} has them.
     */
    static boolean isAsWritten(ConsumerGroup group, ConsumerGroupMember member) {
        return changed(group.written, Map.of(key(MEMBER_METADATA, group.groupId, member.memberId),
                memberMetadata(member), key(CURRENT_MEMBER_ASSIGNMENT, group.groupId, member.memberId),
                currentValue(member))).isEmpty();
    }

    /** Whether the key is one of a member's records, not one of the group's epochs. */
    static boolean isMemberRecord(ByteBuffer key) {
        short type = key.getShort(0);
        return type == MEMBER_METADATA || type == TARGET_ASSIGNMENT_MEMBER || type == CURRENT_MEMBER_ASSIGNMENT;
    }

    static ByteBuffer key(short type, String groupId, String memberId) {
        ByteBuf key = Unpooled.buffer();
        key.writeShort(type);
        GroupMetadataRecord.writeString(key, groupId);
        if (memberId != null) {
            GroupMetadataRecord.writeString(key, memberId);
        }
        return ByteBuffer.wrap(bytes(key)).asReadOnlyBuffer();
    }

    static byte[] epochValue(int epoch) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(epoch);
        Wire.writeUnsignedVarint(value, 0); // no tagged fields
        return bytes(value);
    }

    /** ConsumerGroupMetadataValue: the group epoch, and the metadata hash as a tagged field unless it is 0. */
    private static byte[] metadataValue(int epoch, long metadataHash) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(epoch);
        if (metadataHash == 0) {
            Wire.writeUnsignedVarint(value, 0);
        } else {
            Wire.writeUnsignedVarint(value, 1);
            Wire.writeUnsignedVarint(value, METADATA_HASH_TAG);
            Wire.writeUnsignedVarint(value, Long.BYTES);
            value.writeLong(metadataHash);
        }
        return bytes(value);
    }

    private static byte[] memberMetadata(ConsumerGroupMember member) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        writeCompactString(value, member.instanceId);
        writeCompactString(value, member.rackId);
        writeCompactString(value, member.clientId);
        writeCompactString(value, member.clientHost);
        Wire.writeUnsignedVarint(value, member.subscribedTopicNames.size() + 1);
        member.subscribedTopicNames.forEach(name -> writeCompactString(value, name));
        writeCompactString(value, member.subscribedTopicRegex);
        value.writeInt(member.rebalanceTimeoutMs);
        writeCompactString(value, member.serverAssignor);
        if (member.classic == null) {
            Wire.writeUnsignedVarint(value, 0);
        } else { // tagged field 0: ClassicMemberMetadata
            ByteBuf classic = Unpooled.buffer();
            classic.writeInt(member.classic.sessionTimeoutMs());
            Wire.writeUnsignedVarint(classic, member.classic.protocols().size() + 1);
            member.classic.protocols().forEach((name, metadata) -> {
                writeCompactString(classic, name);
                Wire.writeUnsignedVarint(classic, metadata.length + 1);
                classic.writeBytes(metadata);
                Wire.writeUnsignedVarint(classic, 0);
            });
            Wire.writeUnsignedVarint(classic, 0);
            Wire.writeUnsignedVarint(value, 1);
            Wire.writeUnsignedVarint(value, CLASSIC_MEMBER_METADATA_TAG);
            Wire.writeUnsignedVarint(value, classic.readableBytes());
            value.writeBytes(classic);
        }
        return bytes(value);
    }

    private static byte[] targetValue(Map<UUID, Set<Integer>> target) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        writePartitions(value, target);
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    private static byte[] currentValue(ConsumerGroupMember member) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(member.memberEpoch);
        value.writeInt(member.previousMemberEpoch);
        value.writeByte(member.state.value);
        writeHeldPartitions(value, member.assignedPartitions, member);
        writeHeldPartitions(value, member.partitionsPendingRevocation, member);
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    /** Partitions a member holds or revokes, each topic's with the epochs they were assigned to it at. */
    private static void writeHeldPartitions(ByteBuf value, Map<UUID, Set<Integer>> partitions,
                                            ConsumerGroupMember holder) {
        Wire.writeUnsignedVarint(value, partitions.size() + 1);
        partitions.forEach((topic, numbers) -> {
            Wire.writeUuid(value, topic);
            List<Integer> ordered = List.copyOf(numbers);
            writeInts(value, ordered);
            if (ordered.isEmpty()) {
                Wire.writeUnsignedVarint(value, 0); // as Kafka, which writes no tagged field for an empty list
            } else {
                writeAssignmentEpochs(value, ordered.stream().map(p -> holder.assignmentEpoch(topic, p)).toList());
            }
        });
    }

    /**
     * Reads what {@link #writeHeldPartitions} wrote; the epochs go to {@code epochs}, a partition's left out where
     * the record has none (its member's epoch then counts, as Kafka reads a record written before it kept them).
     */
    private static Map<UUID, Set<Integer>> readHeldPartitions(ByteBuf value, Map<UUID, Map<Integer, Integer>> epochs) {
        int topics = Wire.readUnsignedVarint(value) - 1;
        Map<UUID, Set<Integer>> partitions = new HashMap<>();
        for (int t = 0; t < topics; t++) {
            UUID topic = Wire.readUuid(value);
            List<Integer> numbers = readInts(value);
            List<Integer> assignedAt = readAssignmentEpochs(value);
            if (assignedAt != null && assignedAt.size() == numbers.size()) {
                for (int p = 0; p < numbers.size(); p++) {
                    epochs.computeIfAbsent(topic, k -> new HashMap<>()).put(numbers.get(p), assignedAt.get(p));
                }
            }
            partitions.put(topic, new TreeSet<>(numbers));
        }
        return TopicAssignment.copyOf(partitions);
    }

    /** Tagged fields holding one, AssignmentEpochs: the epochs of the array just written, in its order. */
    static void writeAssignmentEpochs(ByteBuf value, List<Integer> epochs) {
        ByteBuf field = Unpooled.buffer();
        writeInts(field, epochs);
        Wire.writeUnsignedVarint(value, 1);
        Wire.writeUnsignedVarint(value, ASSIGNMENT_EPOCHS_TAG);
        Wire.writeUnsignedVarint(value, field.readableBytes());
        value.writeBytes(field);
    }

    /** A struct's tagged fields: its AssignmentEpochs if it has them, else null; any other tag is skipped. */
    static List<Integer> readAssignmentEpochs(ByteBuf value) {
        List<Integer> epochs = null;
        int count = Wire.readUnsignedVarint(value);
        for (int i = 0; i < count; i++) {
            int tag = Wire.readUnsignedVarint(value);
            int size = Wire.readUnsignedVarint(value);
            if (tag == ASSIGNMENT_EPOCHS_TAG) {
                epochs = readInts(value);
            } else {
                value.skipBytes(size);
            }
        }
        return epochs;
    }

    /** What to do with one tagged field of a struct: its tag, and its bytes (any left unread are skipped). */
    interface TaggedField {
        void read(int tag, ByteBuf field);
    }

    /** Reads a struct's tagged fields, handing each to {@code field}; a tag it does not know it leaves unread. */
    static void readTaggedFields(ByteBuf value, TaggedField field) {
        int count = Wire.readUnsignedVarint(value);
        for (int i = 0; i < count; i++) {
            int tag = Wire.readUnsignedVarint(value);
            field.read(tag, value.readSlice(Wire.readUnsignedVarint(value)));
        }
    }

    static void writeInts(ByteBuf value, List<Integer> ints) {
        Wire.writeUnsignedVarint(value, ints.size() + 1);
        ints.forEach(value::writeInt);
    }

    static List<Integer> readInts(ByteBuf value) {
        int count = Wire.readUnsignedVarint(value) - 1;
        List<Integer> ints = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ints.add(value.readInt());
        }
        return ints;
    }

    static void writePartitions(ByteBuf value, Map<UUID, Set<Integer>> partitions) {
        Wire.writeUnsignedVarint(value, partitions.size() + 1);
        partitions.forEach((topic, numbers) -> {
            Wire.writeUuid(value, topic);
            Wire.writeUnsignedVarint(value, numbers.size() + 1);
            numbers.forEach(value::writeInt);
            Wire.writeUnsignedVarint(value, 0);
        });
    }

    static void writeCompactString(ByteBuf buf, String value) {
        if (value == null) {
            Wire.writeUnsignedVarint(buf, 0);
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        Wire.writeUnsignedVarint(buf, utf8.length + 1);
        buf.writeBytes(utf8);
    }

    static String readCompactString(ByteBuf buf) {
        int length = Wire.readUnsignedVarint(buf) - 1;
        return length < 0 ? null : buf.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }

    static Map<UUID, Set<Integer>> readPartitions(ByteBuf value) {
        int topics = Wire.readUnsignedVarint(value) - 1;
        Map<UUID, Set<Integer>> partitions = new HashMap<>();
        for (int t = 0; t < topics; t++) {
            UUID topic = Wire.readUuid(value);
            int count = Wire.readUnsignedVarint(value) - 1;
            Set<Integer> numbers = new TreeSet<>();
            for (int p = 0; p < count; p++) {
                numbers.add(value.readInt());
            }
            Wire.skipTaggedFields(value);
            partitions.put(topic, numbers);
        }
        return TopicAssignment.copyOf(partitions);
    }

    static void checkVersion(ByteBuf value, short type) {
        short version = value.readShort();
        if (version != VALUE_VERSION) {
            throw new IllegalArgumentException("consumer group record type " + type + " value version " + version
                    + " is not one this broker reads (0)");
        }
    }

    static byte[] bytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    /**
     * What a replay finds of consumer groups, the last record of each key winning; a group's metadata tombstone
     * deletes the group. {@link #groups} then rebuilds them.
     */
    static final class Replay {
        private final Map<String, ConsumerGroup> groups = new LinkedHashMap<>();
        private final ReplayedRecords written = new ReplayedRecords();

        /** Applies one record; {@code key} is positioned after its type. */
        void apply(short type, ByteBuf key, ByteBuf value) {
            String groupId = GroupMetadataRecord.readString(key);
            String memberId = type == METADATA || type == TARGET_ASSIGNMENT_METADATA || type == PARTITION_METADATA
                    ? null : GroupMetadataRecord.readString(key);
            if (type == PARTITION_METADATA) {
                return; // Kafka before 4.1 wrote it; the subscribed topics are looked up again instead
            }
            ByteBuffer keyBytes = key(type, groupId, memberId);
            if (value == null) {
                written.remove(groupId, keyBytes);
                if (type == METADATA) {
                    groups.remove(groupId);
                    written.forget(groupId);
                } else {
                    ConsumerGroup group = groups.get(groupId);
                    if (group != null && type == MEMBER_METADATA) {
                        group.remove(memberId);
                    }
                }
                return;
            }
            written.put(groupId, keyBytes, value);
            ConsumerGroup group = groups.computeIfAbsent(groupId, ConsumerGroup::new);
            checkVersion(value, type);
            switch (type) {
                case METADATA -> readMetadata(group, value);
                case TARGET_ASSIGNMENT_METADATA -> group.assignmentEpoch = value.readInt();
                case TARGET_ASSIGNMENT_MEMBER -> group.targetAssignment.put(memberId, readPartitions(value));
                case MEMBER_METADATA -> readMemberMetadata(group, memberId, value);
                case CURRENT_MEMBER_ASSIGNMENT -> {
                    ConsumerGroupMember member = member(group, memberId);
                    member.memberEpoch = value.readInt();
                    member.previousMemberEpoch = value.readInt();
                    member.state = MemberState.of(value.readByte());
                    Map<UUID, Map<Integer, Integer>> epochs = new HashMap<>();
                    member.assignedPartitions = readHeldPartitions(value, epochs);
                    member.partitionsPendingRevocation = readHeldPartitions(value, epochs);
                    member.assignmentEpochs = epochs;
                }
                default -> {
                }
            }
        }

        /** The group epoch and its metadata hash (0 if the record has none: written before Kafka 4.1, or 0). */
        private static void readMetadata(ConsumerGroup group, ByteBuf value) {
            group.groupEpoch = value.readInt();
            group.metadataHash = 0;
            readTaggedFields(value, (tag, field) -> {
                if (tag == METADATA_HASH_TAG) {
                    group.metadataHash = field.readLong();
                }
            });
        }

        private static void readMemberMetadata(ConsumerGroup group, String memberId, ByteBuf value) {
            ConsumerGroupMember member = member(group, memberId);
            member.instanceId = readCompactString(value);
            member.rackId = readCompactString(value);
            member.clientId = readCompactString(value);
            member.clientHost = readCompactString(value);
            int topics = Wire.readUnsignedVarint(value) - 1;
            List<String> names = new ArrayList<>();
            for (int i = 0; i < topics; i++) {
                names.add(readCompactString(value));
            }
            member.subscribedTopicNames = List.copyOf(names);
            member.subscribedTopicRegex = readCompactString(value);
            member.rebalanceTimeoutMs = value.readInt();
            member.serverAssignor = readCompactString(value);
            member.classic = null;
            readTaggedFields(value, (tag, field) -> {
                if (tag == CLASSIC_MEMBER_METADATA_TAG) {
                    member.classic = readClassicMetadata(field);
                }
            });
            group.add(member); // again, now that its instance id is known
        }

        private static ConsumerGroupMember.ClassicMetadata readClassicMetadata(ByteBuf value) {
            int sessionTimeoutMs = value.readInt();
            int count = Wire.readUnsignedVarint(value) - 1;
            LinkedHashMap<String, byte[]> protocols = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = readCompactString(value);
                byte[] metadata = new byte[Wire.readUnsignedVarint(value) - 1];
                value.readBytes(metadata);
                Wire.skipTaggedFields(value);
                protocols.put(name, metadata);
            }
            return new ConsumerGroupMember.ClassicMetadata(sessionTimeoutMs, protocols);
        }

        private static ConsumerGroupMember member(ConsumerGroup group, String memberId) {
            ConsumerGroupMember member = group.members.get(memberId);
            if (member == null) {
                member = new ConsumerGroupMember(memberId);
                group.add(member);
            }
            return member;
        }

        /** The groups read, each with the records it was rebuilt from. */
        Map<String, ConsumerGroup> groups() {
            groups.forEach((groupId, group) -> group.written = written.of(groupId));
            return groups;
        }
    }
}
