package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of OffsetCommit response bodies of every version; fields a version lacks read as their defaults. */
public final class OffsetCommitResponseView {
    static final StructSchema SCHEMA = ApiKey.OFFSET_COMMIT.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int TOPICS = SCHEMA.indexOf("Topics");

    private final Struct struct;

    public OffsetCommitResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public OffsetCommitResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public OffsetCommitResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<OffsetCommitResponseTopic> topics() {
        return Views.structs(struct.get(TOPICS), OffsetCommitResponseTopic::new);
    }

    public OffsetCommitResponseTopic addTopic() {
        return new OffsetCommitResponseTopic(struct.addElement(TOPICS));
    }

    public static final class OffsetCommitResponseTopic {
        static final StructSchema SCHEMA = OffsetCommitResponseView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public OffsetCommitResponseTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetCommitResponseTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public OffsetCommitResponseTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public OffsetCommitResponseTopic topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<OffsetCommitResponsePartition> partitions() {
            return Views.structs(struct.get(PARTITIONS), OffsetCommitResponsePartition::new);
        }

        public OffsetCommitResponsePartition addPartition() {
            return new OffsetCommitResponsePartition(struct.addElement(PARTITIONS));
        }
    }

    public static final class OffsetCommitResponsePartition {
        static final StructSchema SCHEMA = OffsetCommitResponseTopic.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

        private final Struct struct;

        public OffsetCommitResponsePartition(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetCommitResponsePartition() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public OffsetCommitResponsePartition partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public OffsetCommitResponsePartition errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }
    }
}
