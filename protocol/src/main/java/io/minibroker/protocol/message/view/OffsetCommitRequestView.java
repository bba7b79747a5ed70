package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of OffsetCommit request bodies of every version; fields a version lacks read as their defaults. */
public final class OffsetCommitRequestView {
    static final StructSchema SCHEMA = ApiKey.OFFSET_COMMIT.request().body();
    private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
    private static final int GENERATION_ID_OR_MEMBER_EPOCH = SCHEMA.indexOf("GenerationIdOrMemberEpoch");
    private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
    private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");
    private static final int RETENTION_TIME_MS = SCHEMA.indexOf("RetentionTimeMs");
    private static final int TOPICS = SCHEMA.indexOf("Topics");

    private final Struct struct;

    public OffsetCommitRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public OffsetCommitRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String groupId() {
        return (String) struct.get(GROUP_ID);
    }

    public OffsetCommitRequestView groupId(String value) {
        struct.set(GROUP_ID, value);
        return this;
    }

    public int generationIdOrMemberEpoch() {
        return (Integer) struct.get(GENERATION_ID_OR_MEMBER_EPOCH);
    }

    public OffsetCommitRequestView generationIdOrMemberEpoch(int value) {
        struct.set(GENERATION_ID_OR_MEMBER_EPOCH, value);
        return this;
    }

    public String memberId() {
        return (String) struct.get(MEMBER_ID);
    }

    public OffsetCommitRequestView memberId(String value) {
        struct.set(MEMBER_ID, value);
        return this;
    }

    public String groupInstanceId() {
        return (String) struct.get(GROUP_INSTANCE_ID);
    }

    public OffsetCommitRequestView groupInstanceId(String value) {
        struct.set(GROUP_INSTANCE_ID, value);
        return this;
    }

    public long retentionTimeMs() {
        return (Long) struct.get(RETENTION_TIME_MS);
    }

    public OffsetCommitRequestView retentionTimeMs(long value) {
        struct.set(RETENTION_TIME_MS, value);
        return this;
    }

    public List<OffsetCommitRequestTopic> topics() {
        return Views.structs(struct.get(TOPICS), OffsetCommitRequestTopic::new);
    }

    public OffsetCommitRequestTopic addTopic() {
        return new OffsetCommitRequestTopic(struct.addElement(TOPICS));
    }

    public static final class OffsetCommitRequestTopic {
        static final StructSchema SCHEMA = OffsetCommitRequestView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public OffsetCommitRequestTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetCommitRequestTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public OffsetCommitRequestTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public OffsetCommitRequestTopic topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<OffsetCommitRequestPartition> partitions() {
            return Views.structs(struct.get(PARTITIONS), OffsetCommitRequestPartition::new);
        }

        public OffsetCommitRequestPartition addPartition() {
            return new OffsetCommitRequestPartition(struct.addElement(PARTITIONS));
        }
    }

    public static final class OffsetCommitRequestPartition {
        static final StructSchema SCHEMA = OffsetCommitRequestTopic.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int COMMITTED_OFFSET = SCHEMA.indexOf("CommittedOffset");
        private static final int COMMITTED_LEADER_EPOCH = SCHEMA.indexOf("CommittedLeaderEpoch");
        private static final int COMMITTED_METADATA = SCHEMA.indexOf("CommittedMetadata");

        private final Struct struct;

        public OffsetCommitRequestPartition(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetCommitRequestPartition() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public OffsetCommitRequestPartition partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public long committedOffset() {
            return (Long) struct.get(COMMITTED_OFFSET);
        }

        public OffsetCommitRequestPartition committedOffset(long value) {
            struct.set(COMMITTED_OFFSET, value);
            return this;
        }

        public int committedLeaderEpoch() {
            return (Integer) struct.get(COMMITTED_LEADER_EPOCH);
        }

        public OffsetCommitRequestPartition committedLeaderEpoch(int value) {
            struct.set(COMMITTED_LEADER_EPOCH, value);
            return this;
        }

        public String committedMetadata() {
            return (String) struct.get(COMMITTED_METADATA);
        }

        public OffsetCommitRequestPartition committedMetadata(String value) {
            struct.set(COMMITTED_METADATA, value);
            return this;
        }
    }
}
