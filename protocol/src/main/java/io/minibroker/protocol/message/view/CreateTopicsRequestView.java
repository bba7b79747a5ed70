package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of CreateTopics request bodies of every version; fields a version lacks read as their defaults. */
public final class CreateTopicsRequestView {
    static final StructSchema SCHEMA = ApiKey.CREATE_TOPICS.request().body();
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int TIMEOUT_MS = SCHEMA.indexOf("timeoutMs");
    private static final int VALIDATE_ONLY = SCHEMA.indexOf("validateOnly");

    private final Struct struct;

    public CreateTopicsRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public CreateTopicsRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public List<CreatableTopic> topics() {
        return Views.structs(struct.get(TOPICS), CreatableTopic::new);
    }

    public CreatableTopic addTopic() {
        return new CreatableTopic(struct.addElement(TOPICS));
    }

    public int timeoutMs() {
        return (Integer) struct.get(TIMEOUT_MS);
    }

    public CreateTopicsRequestView timeoutMs(int value) {
        struct.set(TIMEOUT_MS, value);
        return this;
    }

    public boolean validateOnly() {
        return (Boolean) struct.get(VALIDATE_ONLY);
    }

    public CreateTopicsRequestView validateOnly(boolean value) {
        struct.set(VALIDATE_ONLY, value);
        return this;
    }

    public static final class CreatableTopic {
        static final StructSchema SCHEMA = CreateTopicsRequestView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int NUM_PARTITIONS = SCHEMA.indexOf("NumPartitions");
        private static final int REPLICATION_FACTOR = SCHEMA.indexOf("ReplicationFactor");
        private static final int ASSIGNMENTS = SCHEMA.indexOf("Assignments");
        private static final int CONFIGS = SCHEMA.indexOf("Configs");

        private final Struct struct;

        public CreatableTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public CreatableTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public CreatableTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public int numPartitions() {
            return (Integer) struct.get(NUM_PARTITIONS);
        }

        public CreatableTopic numPartitions(int value) {
            struct.set(NUM_PARTITIONS, value);
            return this;
        }

        public short replicationFactor() {
            return (Short) struct.get(REPLICATION_FACTOR);
        }

        public CreatableTopic replicationFactor(short value) {
            struct.set(REPLICATION_FACTOR, value);
            return this;
        }

        public List<CreatableReplicaAssignment> assignments() {
            return Views.structs(struct.get(ASSIGNMENTS), CreatableReplicaAssignment::new);
        }

        public CreatableReplicaAssignment addAssignment() {
            return new CreatableReplicaAssignment(struct.addElement(ASSIGNMENTS));
        }

        public List<CreatableTopicConfig> configs() {
            return Views.structs(struct.get(CONFIGS), CreatableTopicConfig::new);
        }

        public CreatableTopicConfig addConfig() {
            return new CreatableTopicConfig(struct.addElement(CONFIGS));
        }
    }

    public static final class CreatableReplicaAssignment {
        static final StructSchema SCHEMA = CreatableTopic.SCHEMA.structOf("Assignments");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int BROKER_IDS = SCHEMA.indexOf("BrokerIds");

        private final Struct struct;

        public CreatableReplicaAssignment(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public CreatableReplicaAssignment() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public CreatableReplicaAssignment partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public List<Integer> brokerIds() {
            return Views.scalars(struct.get(BROKER_IDS));
        }

        public CreatableReplicaAssignment brokerIds(List<Integer> value) {
            struct.set(BROKER_IDS, value);
            return this;
        }
    }

    public static final class CreatableTopicConfig {
        static final StructSchema SCHEMA = CreatableTopic.SCHEMA.structOf("Configs");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int VALUE = SCHEMA.indexOf("Value");

        private final Struct struct;

        public CreatableTopicConfig(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public CreatableTopicConfig() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public CreatableTopicConfig name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public String value() {
            return (String) struct.get(VALUE);
        }

        public CreatableTopicConfig value(String value) {
            struct.set(VALUE, value);
            return this;
        }
    }
}
