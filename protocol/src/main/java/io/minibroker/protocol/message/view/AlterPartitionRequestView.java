package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of AlterPartition request bodies of every version; fields a version lacks read as their defaults. */
public final class AlterPartitionRequestView {
    static final StructSchema SCHEMA = ApiKey.ALTER_PARTITION.request().body();
    private static final int BROKER_ID = SCHEMA.indexOf("BrokerId");
    private static final int BROKER_EPOCH = SCHEMA.indexOf("BrokerEpoch");
    private static final int TOPICS = SCHEMA.indexOf("Topics");

    private final Struct struct;

    public AlterPartitionRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public AlterPartitionRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int brokerId() {
        return (Integer) struct.get(BROKER_ID);
    }

    public AlterPartitionRequestView brokerId(int value) {
        struct.set(BROKER_ID, value);
        return this;
    }

    public long brokerEpoch() {
        return (Long) struct.get(BROKER_EPOCH);
    }

    public AlterPartitionRequestView brokerEpoch(long value) {
        struct.set(BROKER_EPOCH, value);
        return this;
    }

    public List<TopicData> topics() {
        return Views.structs(struct.get(TOPICS), TopicData::new);
    }

    public TopicData addTopic() {
        return new TopicData(struct.addElement(TOPICS));
    }

    public static final class TopicData {
        static final StructSchema SCHEMA = AlterPartitionRequestView.SCHEMA.structOf("Topics");
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
        private static final int LEADER_EPOCH = SCHEMA.indexOf("LeaderEpoch");
        private static final int NEW_ISR = SCHEMA.indexOf("NewIsr");
        private static final int NEW_ISR_WITH_EPOCHS = SCHEMA.indexOf("NewIsrWithEpochs");
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

        public int leaderEpoch() {
            return (Integer) struct.get(LEADER_EPOCH);
        }

        public PartitionData leaderEpoch(int value) {
            struct.set(LEADER_EPOCH, value);
            return this;
        }

        public List<Integer> newIsr() {
            return Views.scalars(struct.get(NEW_ISR));
        }

        public PartitionData newIsr(List<Integer> value) {
            struct.set(NEW_ISR, value);
            return this;
        }

        public List<BrokerState> newIsrWithEpochs() {
            return Views.structs(struct.get(NEW_ISR_WITH_EPOCHS), BrokerState::new);
        }

        public BrokerState addNewIsrWithEpoch() {
            return new BrokerState(struct.addElement(NEW_ISR_WITH_EPOCHS));
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

    public static final class BrokerState {
        static final StructSchema SCHEMA = PartitionData.SCHEMA.structOf("NewIsrWithEpochs");
        private static final int BROKER_ID = SCHEMA.indexOf("BrokerId");
        private static final int BROKER_EPOCH = SCHEMA.indexOf("BrokerEpoch");

        private final Struct struct;

        public BrokerState(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public BrokerState() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int brokerId() {
            return (Integer) struct.get(BROKER_ID);
        }

        public BrokerState brokerId(int value) {
            struct.set(BROKER_ID, value);
            return this;
        }

        public long brokerEpoch() {
            return (Long) struct.get(BROKER_EPOCH);
        }

        public BrokerState brokerEpoch(long value) {
            struct.set(BROKER_EPOCH, value);
            return this;
        }
    }
}
