package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of OffsetFetch response bodies of every version; fields a version lacks read as their defaults. */
public final class OffsetFetchResponseView {
    static final StructSchema SCHEMA = ApiKey.OFFSET_FETCH.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int GROUPS = SCHEMA.indexOf("Groups");

    private final Struct struct;

    public OffsetFetchResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public OffsetFetchResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public OffsetFetchResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<OffsetFetchResponseTopic> topics() {
        return Views.structs(struct.get(TOPICS), OffsetFetchResponseTopic::new);
    }

    public OffsetFetchResponseTopic addTopic() {
        return new OffsetFetchResponseTopic(struct.addElement(TOPICS));
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public OffsetFetchResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public List<OffsetFetchResponseGroup> groups() {
        return Views.structs(struct.get(GROUPS), OffsetFetchResponseGroup::new);
    }

    public OffsetFetchResponseGroup addGroup() {
        return new OffsetFetchResponseGroup(struct.addElement(GROUPS));
    }

    public static final class OffsetFetchResponseTopic {
        static final StructSchema SCHEMA = OffsetFetchResponseView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public OffsetFetchResponseTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchResponseTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public OffsetFetchResponseTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public List<OffsetFetchResponsePartition> partitions() {
            return Views.structs(struct.get(PARTITIONS), OffsetFetchResponsePartition::new);
        }

        public OffsetFetchResponsePartition addPartition() {
            return new OffsetFetchResponsePartition(struct.addElement(PARTITIONS));
        }
    }

    public static final class OffsetFetchResponseGroup {
        static final StructSchema SCHEMA = OffsetFetchResponseView.SCHEMA.structOf("Groups");
        private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
        private static final int TOPICS = SCHEMA.indexOf("Topics");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

        private final Struct struct;

        public OffsetFetchResponseGroup(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchResponseGroup() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String groupId() {
            return (String) struct.get(GROUP_ID);
        }

        public OffsetFetchResponseGroup groupId(String value) {
            struct.set(GROUP_ID, value);
            return this;
        }

        public List<OffsetFetchResponseTopics> topics() {
            return Views.structs(struct.get(TOPICS), OffsetFetchResponseTopics::new);
        }

        public OffsetFetchResponseTopics addTopic() {
            return new OffsetFetchResponseTopics(struct.addElement(TOPICS));
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public OffsetFetchResponseGroup errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }
    }

    public static final class OffsetFetchResponsePartition {
        static final StructSchema SCHEMA = OffsetFetchResponseTopic.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int COMMITTED_OFFSET = SCHEMA.indexOf("CommittedOffset");
        private static final int COMMITTED_LEADER_EPOCH = SCHEMA.indexOf("CommittedLeaderEpoch");
        private static final int METADATA = SCHEMA.indexOf("Metadata");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

        private final Struct struct;

        public OffsetFetchResponsePartition(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchResponsePartition() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public OffsetFetchResponsePartition partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public long committedOffset() {
            return (Long) struct.get(COMMITTED_OFFSET);
        }

        public OffsetFetchResponsePartition committedOffset(long value) {
            struct.set(COMMITTED_OFFSET, value);
            return this;
        }

        public int committedLeaderEpoch() {
            return (Integer) struct.get(COMMITTED_LEADER_EPOCH);
        }

        public OffsetFetchResponsePartition committedLeaderEpoch(int value) {
            struct.set(COMMITTED_LEADER_EPOCH, value);
            return this;
        }

        public String metadata() {
            return (String) struct.get(METADATA);
        }

        public OffsetFetchResponsePartition metadata(String value) {
            struct.set(METADATA, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public OffsetFetchResponsePartition errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }
    }

    public static final class OffsetFetchResponseTopics {
        static final StructSchema SCHEMA = OffsetFetchResponseGroup.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public OffsetFetchResponseTopics(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchResponseTopics() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public OffsetFetchResponseTopics name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public OffsetFetchResponseTopics topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<OffsetFetchResponsePartitions> partitions() {
            return Views.structs(struct.get(PARTITIONS), OffsetFetchResponsePartitions::new);
        }

        public OffsetFetchResponsePartitions addPartition() {
            return new OffsetFetchResponsePartitions(struct.addElement(PARTITIONS));
        }
    }

    public static final class OffsetFetchResponsePartitions {
        static final StructSchema SCHEMA = OffsetFetchResponseTopics.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int COMMITTED_OFFSET = SCHEMA.indexOf("CommittedOffset");
        private static final int COMMITTED_LEADER_EPOCH = SCHEMA.indexOf("CommittedLeaderEpoch");
        private static final int METADATA = SCHEMA.indexOf("Metadata");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

        private final Struct struct;

        public OffsetFetchResponsePartitions(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchResponsePartitions() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public OffsetFetchResponsePartitions partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public long committedOffset() {
            return (Long) struct.get(COMMITTED_OFFSET);
        }

        public OffsetFetchResponsePartitions committedOffset(long value) {
            struct.set(COMMITTED_OFFSET, value);
            return this;
        }

        public int committedLeaderEpoch() {
            return (Integer) struct.get(COMMITTED_LEADER_EPOCH);
        }

        public OffsetFetchResponsePartitions committedLeaderEpoch(int value) {
            struct.set(COMMITTED_LEADER_EPOCH, value);
            return this;
        }

        public String metadata() {
            return (String) struct.get(METADATA);
        }

        public OffsetFetchResponsePartitions metadata(String value) {
            struct.set(METADATA, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public OffsetFetchResponsePartitions errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }
    }
}
