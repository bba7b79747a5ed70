package io.minibroker.broker.group;

import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static io.minibroker.broker.group.ConsumerGroupRecords.bytes;
import static io.minibroker.broker.group.ConsumerGroupRecords.checkVersion;
import static io.minibroker.broker.group.ConsumerGroupRecords.key;
import static io.minibroker.broker.group.ConsumerGroupRecords.readAssignmentEpochs;
import static io.minibroker.broker.group.ConsumerGroupRecords.readCompactString;
import static io.minibroker.broker.group.ConsumerGroupRecords.readInts;
import static io.minibroker.broker.group.ConsumerGroupRecords.writeAssignmentEpochs;
import static io.minibroker.broker.group.ConsumerGroupRecords.writeInts;
import static io.minibroker.protocol.types.Wire.skipTaggedFields;
import static io.minibroker.broker.group.ConsumerGroupRecords.writeCompactString;

/**
 * A streams group's records in {@code __consumer_offsets}, in Kafka's layouts (the group coordinator's
 * StreamsGroup*Key/Value specs of Kafka 4.3), so that the group survives a restart or a coordinator's failover:
 * StreamsGroupTopology (type 23: the topology), StreamsGroupMemberMetadata (19: a member's process, endpoint, client
 * and topology epoch), StreamsGroupMetadata (17: the group epoch, and in its tagged fields the validated topology
 * epoch and the standbys the target was computed with), StreamsGroupTargetAssignmentMember (21: a member's target),
 * StreamsGroupTargetAssignmentMetadata (20: the assignment epoch) and StreamsGroupCurrentMemberAssignment (22: a
 * member's epochs, state, tasks and tasks pending revocation, each active task with the epoch it was assigned at in
 * the TaskIds' tagged AssignmentEpochs). Keys and values are framed as
 * {@link ConsumerGroupRecords}' are. StreamsGroupPartitionMetadata (18, gone from Kafka 4.1) is neither written nor
 * needed (skipped on replay); StreamsGroupMetadata's MetadataHash is the topology's required topics'
 * {@link MetadataHash}, as Kafka's.
 */
final class StreamsGroupRecords {

    static final short METADATA = 17;
    static final short PARTITION_METADATA = 18;
    static final short MEMBER_METADATA = 19;
    static final short TARGET_ASSIGNMENT_METADATA = 20;
    static final short TARGET_ASSIGNMENT_MEMBER = 21;
    static final short CURRENT_MEMBER_ASSIGNMENT = 22;
    static final short TOPOLOGY = 23;
    private static final short VALUE_VERSION = 0;
    /** StreamsGroupMetadataValue's tagged fields: ValidatedTopologyEpoch and LastAssignmentConfigs. */
    private static final int VALIDATED_TOPOLOGY_EPOCH_TAG = 0;
    private static final int LAST_ASSIGNMENT_CONFIGS_TAG = 1;
    /** The assignment config Kafka's task assignor is given, as LastAssignmentConfigs names it. */
    private static final String NUM_STANDBY_REPLICAS = "num.standby.replicas";

    private StreamsGroupRecords() {
    }

    static boolean isStreamsGroupRecord(short keyType) {
        return keyType >= METADATA && keyType <= TOPOLOGY;
    }

    /** Every record of the group as it is now, by key bytes, in the order Kafka writes a new member's. */
    static Map<ByteBuffer, byte[]> snapshot(StreamsGroup group) {
        Map<ByteBuffer, byte[]> records = new LinkedHashMap<>();
        if (group.topology != null) {
            records.put(key(TOPOLOGY, group.groupId, null), topologyValue(group.topology));
        }
        records.putAll(snapshot(group, group.members.values()));
        return records;
    }

    /**
     * The group's two epoch records and the records of these of its members (three each), as {@link #snapshot}
     * gives them: what one member's heartbeat can change once the topology is written (it is set once, by the
     * first member, and never replaced).
     */
    static Map<ByteBuffer, byte[]> snapshot(StreamsGroup group, Collection<StreamsGroupMember> members) {
        Map<ByteBuffer, byte[]> records = new LinkedHashMap<>();
        for (StreamsGroupMember member : members) {
            records.put(key(MEMBER_METADATA, group.groupId, member.memberId), memberMetadata(member));
        }
        records.put(key(METADATA, group.groupId, null), groupMetadata(group));
        for (StreamsGroupMember member : members) {
            ByteBuf target = Unpooled.buffer();
            target.writeShort(VALUE_VERSION);
            writeTasks(target, group.targetOf(member.memberId), null);
            Wire.writeUnsignedVarint(target, 0);
            records.put(key(TARGET_ASSIGNMENT_MEMBER, group.groupId, member.memberId), bytes(target));
        }
        records.put(key(TARGET_ASSIGNMENT_METADATA, group.groupId, null),
                ConsumerGroupRecords.epochValue(group.assignmentEpoch));
        for (StreamsGroupMember member : members) {
            records.put(key(CURRENT_MEMBER_ASSIGNMENT, group.groupId, member.memberId), currentValue(member));
        }
        return records;
    }

    /** How many records {@link #snapshot} gives for the group as it is now. */
    static int recordCount(StreamsGroup group) {
        return 3 * group.members.size() + 2 + (group.topology != null ? 1 : 0);
    }

    /** Whether the key is one of a member's records, not one of the group's. */
    static boolean isMemberRecord(ByteBuffer key) {
        short type = key.getShort(0);
        return type == MEMBER_METADATA || type == TARGET_ASSIGNMENT_MEMBER || type == CURRENT_MEMBER_ASSIGNMENT;
    }

    private static byte[] groupMetadata(StreamsGroup group) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(group.groupEpoch);
        value.writeLong(group.metadataHash);
        ByteBuf configs = Unpooled.buffer();
        if (group.numStandbyReplicas >= 0) {
            writeKeyValues(configs, Map.of(NUM_STANDBY_REPLICAS, Integer.toString(group.numStandbyReplicas)));
        }
        int tags = (group.validatedTopologyEpoch != -1 ? 1 : 0) + (configs.isReadable() ? 1 : 0);
        Wire.writeUnsignedVarint(value, tags);
        if (group.validatedTopologyEpoch != -1) {
            Wire.writeUnsignedVarint(value, VALIDATED_TOPOLOGY_EPOCH_TAG);
            Wire.writeUnsignedVarint(value, Integer.BYTES);
            value.writeInt(group.validatedTopologyEpoch);
        }
        if (configs.isReadable()) {
            Wire.writeUnsignedVarint(value, LAST_ASSIGNMENT_CONFIGS_TAG);
            Wire.writeUnsignedVarint(value, configs.readableBytes());
            value.writeBytes(configs);
        }
        return bytes(value);
    }

    private static byte[] memberMetadata(StreamsGroupMember member) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        writeCompactString(value, member.instanceId);
        writeCompactString(value, member.rackId);
        writeCompactString(value, member.clientId);
        writeCompactString(value, member.clientHost);
        value.writeInt(member.rebalanceTimeoutMs);
        value.writeInt(member.topologyEpoch);
        writeCompactString(value, member.processId);
        if (member.userEndpoint == null) {
            value.writeByte(-1);
        } else {
            value.writeByte(1);
            writeCompactString(value, member.userEndpoint.host());
            value.writeShort(member.userEndpoint.port());
            Wire.writeUnsignedVarint(value, 0);
        }
        writeKeyValues(value, new TreeMap<>(member.clientTags));
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    private static byte[] currentValue(StreamsGroupMember member) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(member.memberEpoch);
        value.writeInt(member.previousMemberEpoch);
        value.writeByte(member.state.ordinal() + 1); // Kafka's MemberState values: STABLE 1, UNREVOKED 2, UNRELEASED 3
        writeTasks(value, member.assignedTasks, member);
        writeTasks(value, member.tasksPendingRevocation, member);
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    /**
     * Active, standby and warm-up tasks: three arrays of TaskIds (a subtopology id and its partitions); with the
     * {@code holder} of a current assignment, each active TaskIds carries the epochs its tasks were assigned at
     * (tagged field 0, AssignmentEpochs, in the partitions' order).
     */
    private static void writeTasks(ByteBuf value, StreamsTasks tasks, StreamsGroupMember holder) {
        List<Map<String, Set<Integer>>> kinds = List.of(tasks.active(), tasks.standby(), tasks.warmup());
        for (int kind = 0; kind < kinds.size(); kind++) {
            boolean withEpochs = kind == 0 && holder != null;
            Map<String, Set<Integer>> sorted = new TreeMap<>(kinds.get(kind));
            Wire.writeUnsignedVarint(value, sorted.size() + 1);
            sorted.forEach((subtopologyId, partitions) -> {
                writeCompactString(value, subtopologyId);
                List<Integer> ordered = new ArrayList<>(new TreeSet<>(partitions));
                writeInts(value, ordered);
                if (!withEpochs) {
                    Wire.writeUnsignedVarint(value, 0);
                    return;
                }
                writeAssignmentEpochs(value, ordered.stream().map(p -> holder.activeTaskEpochs
                        .getOrDefault(new TaskId(subtopologyId, p), holder.memberEpoch)).toList());
            });
        }
    }

    /**
     * Reads what {@link #writeTasks} wrote; with a current assignment's {@code holder}, its active tasks' epochs go
     * to its {@link StreamsGroupMember#activeTaskEpochs}, each the member's epoch where the record has none (as
     * Kafka reads a record written before it kept them).
     */
    private static StreamsTasks readTasks(ByteBuf value, StreamsGroupMember holder) {
        List<Map<String, Set<Integer>>> kinds = new ArrayList<>();
        for (int kind = 0; kind < 3; kind++) {
            Map<String, Set<Integer>> tasks = new TreeMap<>();
            int count = Wire.readUnsignedVarint(value) - 1;
            for (int i = 0; i < count; i++) {
                String subtopologyId = readCompactString(value);
                List<Integer> partitions = readInts(value);
                tasks.put(subtopologyId, new TreeSet<>(partitions));
                List<Integer> epochs = readAssignmentEpochs(value);
                if (kind == 0 && holder != null) {
                    for (int p = 0; p < partitions.size(); p++) {
                        holder.activeTaskEpochs.put(new TaskId(subtopologyId, partitions.get(p)),
                                epochs != null && epochs.size() == partitions.size() ? epochs.get(p)
                                        : holder.memberEpoch);
                    }
                }
            }
            kinds.add(tasks);
        }
        return new StreamsTasks(kinds.get(0), kinds.get(1), kinds.get(2));
    }

    private static byte[] topologyValue(StreamsTopology topology) {
        ByteBuf value = Unpooled.buffer();
        value.writeShort(VALUE_VERSION);
        value.writeInt(topology.epoch());
        Wire.writeUnsignedVarint(value, topology.subtopologies().size() + 1);
        for (StreamsTopology.Subtopology subtopology : topology.subtopologies().values()) {
            writeCompactString(value, subtopology.id());
            writeStrings(value, subtopology.sourceTopics());
            writeStrings(value, List.of()); // SourceTopicRegex: refused at the heartbeat
            writeTopicInfos(value, subtopology.stateChangelogTopics());
            writeStrings(value, subtopology.repartitionSinkTopics());
            writeTopicInfos(value, subtopology.repartitionSourceTopics());
            List<String> repartitionSources = subtopology.repartitionSourceTopics().stream()
                    .map(StreamsTopology.TopicInfo::name).toList();
            Wire.writeUnsignedVarint(value, subtopology.copartitionGroups().size() + 1);
            for (Set<String> group : subtopology.copartitionGroups()) {
                writeIndices(value, group, subtopology.sourceTopics());
                Wire.writeUnsignedVarint(value, 1); // SourceTopicRegex indices: none
                writeIndices(value, group, repartitionSources);
                Wire.writeUnsignedVarint(value, 0);
            }
            Wire.writeUnsignedVarint(value, 0);
        }
        Wire.writeUnsignedVarint(value, 0);
        return bytes(value);
    }

    private static StreamsTopology readTopology(ByteBuf value) {
        int epoch = value.readInt();
        TreeMap<String, StreamsTopology.Subtopology> subtopologies = new TreeMap<>();
        int count = Wire.readUnsignedVarint(value) - 1;
        for (int i = 0; i < count; i++) {
            String id = readCompactString(value);
            List<String> sources = readStrings(value);
            readStrings(value); // SourceTopicRegex: none is written
            List<StreamsTopology.TopicInfo> changelogs = readTopicInfos(value);
            List<String> sinks = readStrings(value);
            List<StreamsTopology.TopicInfo> repartitionSources = readTopicInfos(value);
            List<Set<String>> copartitionGroups = new ArrayList<>();
            int groups = Wire.readUnsignedVarint(value) - 1;
            for (int g = 0; g < groups; g++) {
                Set<String> group = new LinkedHashSet<>();
                readShorts(value).forEach(index -> group.add(sources.get(index)));
                readShorts(value); // SourceTopicRegex indices: none is written
                readShorts(value).forEach(index -> group.add(repartitionSources.get(index).name()));
                skipTaggedFields(value);
                copartitionGroups.add(group);
            }
            skipTaggedFields(value);
            subtopologies.put(id, new StreamsTopology.Subtopology(id, sources, sinks, repartitionSources, changelogs,
                    copartitionGroups));
        }
        return new StreamsTopology(epoch, subtopologies);
    }

    private static void writeIndices(ByteBuf value, Set<String> group, List<String> topics) {
        List<Integer> indices = new ArrayList<>();
        for (int i = 0; i < topics.size(); i++) {
            if (group.contains(topics.get(i))) {
                indices.add(i);
            }
        }
        Wire.writeUnsignedVarint(value, indices.size() + 1);
        indices.forEach(index -> value.writeShort(index));
    }

    private static List<Integer> readShorts(ByteBuf value) {
        int count = Wire.readUnsignedVarint(value) - 1;
        List<Integer> shorts = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            shorts.add((int) value.readShort());
        }
        return shorts;
    }

    private static void writeTopicInfos(ByteBuf value, List<StreamsTopology.TopicInfo> topics) {
        Wire.writeUnsignedVarint(value, topics.size() + 1);
        for (StreamsTopology.TopicInfo topic : topics) {
            writeCompactString(value, topic.name());
            value.writeInt(topic.partitions());
            value.writeShort(topic.replicationFactor());
            writeKeyValues(value, new TreeMap<>(topic.configs()));
            Wire.writeUnsignedVarint(value, 0);
        }
    }

    private static List<StreamsTopology.TopicInfo> readTopicInfos(ByteBuf value) {
        int count = Wire.readUnsignedVarint(value) - 1;
        List<StreamsTopology.TopicInfo> topics = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = readCompactString(value);
            int partitions = value.readInt();
            short replicationFactor = value.readShort();
            Map<String, String> configs = readKeyValues(value);
            skipTaggedFields(value);
            topics.add(new StreamsTopology.TopicInfo(name, partitions, replicationFactor, configs));
        }
        return topics;
    }

    private static void writeStrings(ByteBuf value, List<String> strings) {
        Wire.writeUnsignedVarint(value, strings.size() + 1);
        strings.forEach(string -> writeCompactString(value, string));
    }

    private static List<String> readStrings(ByteBuf value) {
        int count = Wire.readUnsignedVarint(value) - 1;
        List<String> strings = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            strings.add(readCompactString(value));
        }
        return strings;
    }

    /** An array of key-value structs (ClientTags, TopicConfigs, LastAssignmentConfigs), each with tagged fields. */
    private static void writeKeyValues(ByteBuf value, Map<String, String> pairs) {
        Wire.writeUnsignedVarint(value, pairs.size() + 1);
        pairs.forEach((k, v) -> {
            writeCompactString(value, k);
            writeCompactString(value, v);
            Wire.writeUnsignedVarint(value, 0);
        });
    }

    private static Map<String, String> readKeyValues(ByteBuf value) {
        int count = Wire.readUnsignedVarint(value) - 1;
        Map<String, String> pairs = new HashMap<>();
        for (int i = 0; i < count; i++) {
            pairs.put(readCompactString(value), readCompactString(value));
            skipTaggedFields(value);
        }
        return pairs;
    }

    /**
     * What a replay finds of streams groups, the last record of each key winning; the group's metadata tombstone
     * deletes it, a member's metadata tombstone removes the member.
     */
    static final class Replay {
        private final Map<String, StreamsGroup> groups = new LinkedHashMap<>();
        private final ReplayedRecords written = new ReplayedRecords();

        /** Applies one record; {@code key} is positioned after its type. */
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
                StreamsGroup group = groups.get(groupId);
                if (written.groupGoneWith(groupId, keyBytes, type == METADATA)) {
                    groups.remove(groupId);
                } else if (group != null && type == MEMBER_METADATA) {
                    group.members.remove(memberId);
                    group.targetAssignment.remove(memberId);
                }
                return;
            }
            written.put(groupId, keyBytes, value);
            StreamsGroup group = groups.computeIfAbsent(groupId, StreamsGroup::new);
            checkVersion(value, type);
            switch (type) {
                case METADATA -> readGroupMetadata(group, value);
                case TOPOLOGY -> group.topology = readTopology(value);
                case TARGET_ASSIGNMENT_METADATA -> group.assignmentEpoch = value.readInt();
                case TARGET_ASSIGNMENT_MEMBER -> group.targetAssignment.put(memberId, readTasks(value, null));
                case MEMBER_METADATA -> readMemberMetadata(member(group, memberId), value);
                case CURRENT_MEMBER_ASSIGNMENT -> {
                    StreamsGroupMember member = member(group, memberId);
                    member.memberEpoch = value.readInt();
                    member.previousMemberEpoch = value.readInt();
                    member.state = state(value.readByte());
                    member.activeTaskEpochs = new HashMap<>();
                    member.assignedTasks = readTasks(value, member);
                    member.tasksPendingRevocation = readTasks(value, member);
                }
                default -> {
                }
            }
        }

        private static StreamsGroupMember.State state(byte value) {
            StreamsGroupMember.State[] states = StreamsGroupMember.State.values();
            if (value < 1 || value > states.length) {
                throw new IllegalArgumentException("streams group member state " + value + " is not one this broker"
                        + " reads (1 to " + states.length + ")");
            }
            return states[value - 1];
        }

        private static void readGroupMetadata(StreamsGroup group, ByteBuf value) {
            group.groupEpoch = value.readInt();
            group.metadataHash = value.readLong();
            group.validatedTopologyEpoch = -1;
            group.numStandbyReplicas = -1;
            ConsumerGroupRecords.readTaggedFields(value, (tag, field) -> {
                if (tag == VALIDATED_TOPOLOGY_EPOCH_TAG) {
                    group.validatedTopologyEpoch = field.readInt();
                } else if (tag == LAST_ASSIGNMENT_CONFIGS_TAG) {
                    String standbys = Wire.readUnsignedVarint(field.duplicate()) == 0 ? null
                            : readKeyValues(field).get(NUM_STANDBY_REPLICAS);
                    group.numStandbyReplicas = standbys == null ? -1 : Integer.parseInt(standbys);
                }
            });
        }

        private static void readMemberMetadata(StreamsGroupMember member, ByteBuf value) {
            member.instanceId = readCompactString(value);
            member.rackId = readCompactString(value);
            member.clientId = readCompactString(value);
            member.clientHost = readCompactString(value);
            member.rebalanceTimeoutMs = value.readInt();
            member.topologyEpoch = value.readInt();
            member.processId = readCompactString(value);
            if (value.readByte() < 0) {
                member.userEndpoint = null;
            } else {
                String host = readCompactString(value);
                member.userEndpoint = new StreamsGroupMember.Endpoint(host, value.readUnsignedShort());
                skipTaggedFields(value);
            }
            member.clientTags = Map.copyOf(readKeyValues(value));
        }

        private static StreamsGroupMember member(StreamsGroup group, String memberId) {
            return group.members.computeIfAbsent(memberId, StreamsGroupMember::new);
        }

        /** The groups read, each with the records it was rebuilt from. */
        Map<String, StreamsGroup> groups() {
            groups.forEach((groupId, group) -> group.written = written.of(groupId));
            return groups;
        }
    }
}
