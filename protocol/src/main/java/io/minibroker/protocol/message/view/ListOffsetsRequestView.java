package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of ListOffsets request bodies of every version; fields a version lacks read as their defaults. */
public final class ListOffsetsRequestView {
    static final StructSchema SCHEMA = ApiKey.LIST_OFFSETS.request().body();
    private static final int REPLICA_ID = SCHEMA.indexOf("ReplicaId");
    private static final int ISOLATION_LEVEL = SCHEMA.indexOf("IsolationLevel");
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int TIMEOUT_MS = SCHEMA.indexOf("TimeoutMs");

    private final Struct struct;

    public ListOffsetsRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public ListOffsetsRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int replicaId() {
        return (Integer) struct.get(REPLICA_ID);
    }

    public ListOffsetsRequestView replicaId(int value) {
        struct.set(REPLICA_ID, value);
        return this;
    }

    public byte isolationLevel() {
        return (Byte) struct.get(ISOLATION_LEVEL);
    }

    public ListOffsetsRequestView isolationLevel(byte value) {
        struct.set(ISOLATION_LEVEL, value);
        return this;
    }

    public List<ListOffsetsTopic> topics() {
        return Views.structs(struct.get(TOPICS), ListOffsetsTopic::new);
    }

    public ListOffsetsTopic addTopic() {
        return new ListOffsetsTopic(struct.addElement(TOPICS));
    }

    public int timeoutMs() {
        return (Integer) struct.get(TIMEOUT_MS);
    }

    public ListOffsetsRequestView timeoutMs(int value) {
        struct.set(TIMEOUT_MS, value);
        return this;
    }

    public static final class ListOffsetsTopic {
        static final StructSchema SCHEMA = ListOffsetsRequestView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public ListOffsetsTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ListOffsetsTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public ListOffsetsTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public List<ListOffsetsPartition> partitions() {
            return Views.structs(struct.get(PARTITIONS), ListOffsetsPartition::new);
        }

        public ListOffsetsPartition addPartition() {
            return new ListOffsetsPartition(struct.addElement(PARTITIONS));
        }
    }

    public static final class ListOffsetsPartition {
        static final StructSchema SCHEMA = ListOffsetsTopic.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int CURRENT_LEADER_EPOCH = SCHEMA.indexOf("CurrentLeaderEpoch");
        private static final int TIMESTAMP = SCHEMA.indexOf("Timestamp");

        private final Struct struct;

        public ListOffsetsPartition(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ListOffsetsPartition() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public ListOffsetsPartition partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public int currentLeaderEpoch() {
            return (Integer) struct.get(CURRENT_LEADER_EPOCH);
        }

        public ListOffsetsPartition currentLeaderEpoch(int value) {
            struct.set(CURRENT_LEADER_EPOCH, value);
            return this;
        }

        public long timestamp() {
            return (Long) struct.get(TIMESTAMP);
        }

        public ListOffsetsPartition timestamp(long value) {
            struct.set(TIMESTAMP, value);
            return this;
        }
    }
}
