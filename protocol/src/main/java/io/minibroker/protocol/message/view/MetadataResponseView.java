package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of Metadata response bodies of every version; fields a version lacks read as their defaults. */
public final class MetadataResponseView {
    static final StructSchema SCHEMA = ApiKey.METADATA.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int BROKERS = SCHEMA.indexOf("Brokers");
    private static final int CLUSTER_ID = SCHEMA.indexOf("ClusterId");
    private static final int CONTROLLER_ID = SCHEMA.indexOf("ControllerId");
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int CLUSTER_AUTHORIZED_OPERATIONS = SCHEMA.indexOf("ClusterAuthorizedOperations");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

    private final Struct struct;

    public MetadataResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public MetadataResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public MetadataResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<MetadataResponseBroker> brokers() {
        return Views.structs(struct.get(BROKERS), MetadataResponseBroker::new);
    }

    public MetadataResponseBroker addBroker() {
        return new MetadataResponseBroker(struct.addElement(BROKERS));
    }

    public String clusterId() {
        return (String) struct.get(CLUSTER_ID);
    }

    public MetadataResponseView clusterId(String value) {
        struct.set(CLUSTER_ID, value);
        return this;
    }

    public int controllerId() {
        return (Integer) struct.get(CONTROLLER_ID);
    }

    public MetadataResponseView controllerId(int value) {
        struct.set(CONTROLLER_ID, value);
        return this;
    }

    public List<MetadataResponseTopic> topics() {
        return Views.structs(struct.get(TOPICS), MetadataResponseTopic::new);
    }

    public MetadataResponseTopic addTopic() {
        return new MetadataResponseTopic(struct.addElement(TOPICS));
    }

    public int clusterAuthorizedOperations() {
        return (Integer) struct.get(CLUSTER_AUTHORIZED_OPERATIONS);
    }

    public MetadataResponseView clusterAuthorizedOperations(int value) {
        struct.set(CLUSTER_AUTHORIZED_OPERATIONS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public MetadataResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public static final class MetadataResponseBroker {
        static final StructSchema SCHEMA = MetadataResponseView.SCHEMA.structOf("Brokers");
        private static final int NODE_ID = SCHEMA.indexOf("NodeId");
        private static final int HOST = SCHEMA.indexOf("Host");
        private static final int PORT = SCHEMA.indexOf("Port");
        private static final int RACK = SCHEMA.indexOf("Rack");

        private final Struct struct;

        public MetadataResponseBroker(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public MetadataResponseBroker() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int nodeId() {
            return (Integer) struct.get(NODE_ID);
        }

        public MetadataResponseBroker nodeId(int value) {
            struct.set(NODE_ID, value);
            return this;
        }

        public String host() {
            return (String) struct.get(HOST);
        }

        public MetadataResponseBroker host(String value) {
            struct.set(HOST, value);
            return this;
        }

        public int port() {
            return (Integer) struct.get(PORT);
        }

        public MetadataResponseBroker port(int value) {
            struct.set(PORT, value);
            return this;
        }

        public String rack() {
            return (String) struct.get(RACK);
        }

        public MetadataResponseBroker rack(String value) {
            struct.set(RACK, value);
            return this;
        }
    }

    public static final class MetadataResponseTopic {
        static final StructSchema SCHEMA = MetadataResponseView.SCHEMA.structOf("Topics");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int IS_INTERNAL = SCHEMA.indexOf("IsInternal");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");
        private static final int TOPIC_AUTHORIZED_OPERATIONS = SCHEMA.indexOf("TopicAuthorizedOperations");

        private final Struct struct;

        public MetadataResponseTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public MetadataResponseTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public MetadataResponseTopic errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public MetadataResponseTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public MetadataResponseTopic topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public boolean isInternal() {
            return (Boolean) struct.get(IS_INTERNAL);
        }

        public MetadataResponseTopic isInternal(boolean value) {
            struct.set(IS_INTERNAL, value);
            return this;
        }

        public List<MetadataResponsePartition> partitions() {
            return Views.structs(struct.get(PARTITIONS), MetadataResponsePartition::new);
        }

        public MetadataResponsePartition addPartition() {
            return new MetadataResponsePartition(struct.addElement(PARTITIONS));
        }

        public int topicAuthorizedOperations() {
            return (Integer) struct.get(TOPIC_AUTHORIZED_OPERATIONS);
        }

        public MetadataResponseTopic topicAuthorizedOperations(int value) {
            struct.set(TOPIC_AUTHORIZED_OPERATIONS, value);
            return this;
        }
    }

    public static final class MetadataResponsePartition {
        static final StructSchema SCHEMA = MetadataResponseTopic.SCHEMA.structOf("Partitions");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int LEADER_ID = SCHEMA.indexOf("LeaderId");
        private static final int LEADER_EPOCH = SCHEMA.indexOf("LeaderEpoch");
        private static final int REPLICA_NODES = SCHEMA.indexOf("ReplicaNodes");
        private static final int ISR_NODES = SCHEMA.indexOf("IsrNodes");
        private static final int OFFLINE_REPLICAS = SCHEMA.indexOf("OfflineReplicas");

        private final Struct struct;

        public MetadataResponsePartition(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public MetadataResponsePartition() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public MetadataResponsePartition errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public MetadataResponsePartition partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public int leaderId() {
            return (Integer) struct.get(LEADER_ID);
        }

        public MetadataResponsePartition leaderId(int value) {
            struct.set(LEADER_ID, value);
            return this;
        }

        public int leaderEpoch() {
            return (Integer) struct.get(LEADER_EPOCH);
        }

        public MetadataResponsePartition leaderEpoch(int value) {
            struct.set(LEADER_EPOCH, value);
            return this;
        }

        public List<Integer> replicaNodes() {
            return Views.scalars(struct.get(REPLICA_NODES));
        }

        public MetadataResponsePartition replicaNodes(List<Integer> value) {
            struct.set(REPLICA_NODES, value);
            return this;
        }

        public List<Integer> isrNodes() {
            return Views.scalars(struct.get(ISR_NODES));
        }

        public MetadataResponsePartition isrNodes(List<Integer> value) {
            struct.set(ISR_NODES, value);
            return this;
        }

        public List<Integer> offlineReplicas() {
            return Views.scalars(struct.get(OFFLINE_REPLICAS));
        }

        public MetadataResponsePartition offlineReplicas(List<Integer> value) {
            struct.set(OFFLINE_REPLICAS, value);
            return this;
        }
    }
}
