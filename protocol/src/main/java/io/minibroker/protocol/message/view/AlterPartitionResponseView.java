package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of AlterPartition response bodies of every version; fields a version lacks read as their defaults. */
public final class AlterPartitionResponseView {
    static final StructSchema SCHEMA = ApiKey.ALTER_PARTITION.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int TOPICS = SCHEMA.indexOf("Topics");

    private final Struct struct;

    public AlterPartitionResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public AlterPartitionResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public AlterPartitionResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public AlterPartitionResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public List<TopicData> topics() {
        return Views.structs(struct.get(TOPICS), TopicData::new);
    }

    public TopicData addTopic() {
        return new TopicData(struct.addElement(TOPICS));
    }

    public static final class TopicData {
        static final StructSchema SCHEMA = AlterPartitionResponseView.SCHEMA.structOf("Topics");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public TopicData(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public TopicData() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public TopicData topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<PartitionData> partitions() {
            return Views.structs(struct.get(PARTITIONS), PartitionData::new);
        }

        public PartitionData addPartition() {
            return new PartitionData(struct.addElement(PARTITIONS));
        }
    }

    public static final class PartitionData {
        static final StructSchema SCHEMA = TopicData.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int LEADER_ID = SCHEMA.indexOf("LeaderId");
        private static final int LEADER_EPOCH = SCHEMA.indexOf("LeaderEpoch");
        private static final int ISR = SCHEMA.indexOf("Isr");
        private static final int LEADER_RECOVERY_STATE = SCHEMA.indexOf("LeaderRecoveryState");
        private static final int PARTITION_EPOCH = SCHEMA.indexOf("PartitionEpoch");

        private final Struct struct;

        public PartitionData(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public PartitionData() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public PartitionData partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public PartitionData errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public int leaderId() {
            return (Integer) struct.get(LEADER_ID);
        }

        public PartitionData leaderId(int value) {
            struct.set(LEADER_ID, value);
            return this;
        }

        public int leaderEpoch() {
            return (Integer) struct.get(LEADER_EPOCH);
        }

        public PartitionData leaderEpoch(int value) {
            struct.set(LEADER_EPOCH, value);
            return this;
        }

        public List<Integer> isr() {
            return Views.scalars(struct.get(ISR));
        }

        public PartitionData isr(List<Integer> value) {
            struct.set(ISR, value);
            return this;
        }

        public byte leaderRecoveryState() {
            return (Byte) struct.get(LEADER_RECOVERY_STATE);
        }

        public PartitionData leaderRecoveryState(byte value) {
            struct.set(LEADER_RECOVERY_STATE, value);
            return this;
        }

        public int partitionEpoch() {
            return (Integer) struct.get(PARTITION_EPOCH);
        }

        public PartitionData partitionEpoch(int value) {
            struct.set(PARTITION_EPOCH, value);
            return this;
        }
    }
}
