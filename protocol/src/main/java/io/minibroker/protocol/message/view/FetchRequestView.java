package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of Fetch request bodies of every version; fields a version lacks read as their defaults. */
public final class FetchRequestView {
    static final StructSchema SCHEMA = ApiKey.FETCH.request().body();
    private static final int CLUSTER_ID = SCHEMA.indexOf("ClusterId");
    private static final int REPLICA_ID = SCHEMA.indexOf("ReplicaId");
    private static final int REPLICA_STATE = SCHEMA.indexOf("ReplicaState");
    private static final int MAX_WAIT_MS = SCHEMA.indexOf("MaxWaitMs");
    private static final int MIN_BYTES = SCHEMA.indexOf("MinBytes");
    private static final int MAX_BYTES = SCHEMA.indexOf("MaxBytes");
    private static final int ISOLATION_LEVEL = SCHEMA.indexOf("IsolationLevel");
    private static final int SESSION_ID = SCHEMA.indexOf("SessionId");
    private static final int SESSION_EPOCH = SCHEMA.indexOf("SessionEpoch");
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int FORGOTTEN_TOPICS_DATA = SCHEMA.indexOf("ForgottenTopicsData");
    private static final int RACK_ID = SCHEMA.indexOf("RackId");

    private final Struct struct;

    public FetchRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public FetchRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String clusterId() {
        return (String) struct.get(CLUSTER_ID);
    }

    public FetchRequestView clusterId(String value) {
        struct.set(CLUSTER_ID, value);
        return this;
    }

    public int replicaId() {
        return (Integer) struct.get(REPLICA_ID);
    }

    public FetchRequestView replicaId(int value) {
        struct.set(REPLICA_ID, value);
        return this;
    }

    public ReplicaState replicaState() {
        return new ReplicaState((Struct) struct.get(REPLICA_STATE));
    }

    public int maxWaitMs() {
        return (Integer) struct.get(MAX_WAIT_MS);
    }

    public FetchRequestView maxWaitMs(int value) {
        struct.set(MAX_WAIT_MS, value);
        return this;
    }

    public int minBytes() {
        return (Integer) struct.get(MIN_BYTES);
    }

    public FetchRequestView minBytes(int value) {
        struct.set(MIN_BYTES, value);
        return this;
    }

    public int maxBytes() {
        return (Integer) struct.get(MAX_BYTES);
    }

    public FetchRequestView maxBytes(int value) {
        struct.set(MAX_BYTES, value);
        return this;
    }

    public byte isolationLevel() {
        return (Byte) struct.get(ISOLATION_LEVEL);
    }

    public FetchRequestView isolationLevel(byte value) {
        struct.set(ISOLATION_LEVEL, value);
        return this;
    }

    public int sessionId() {
        return (Integer) struct.get(SESSION_ID);
    }

    public FetchRequestView sessionId(int value) {
        struct.set(SESSION_ID, value);
        return this;
    }

    public int sessionEpoch() {
        return (Integer) struct.get(SESSION_EPOCH);
    }

    public FetchRequestView sessionEpoch(int value) {
        struct.set(SESSION_EPOCH, value);
        return this;
    }

    public List<FetchTopic> topics() {
        return Views.structs(struct.get(TOPICS), FetchTopic::new);
    }

    public FetchTopic addTopic() {
        return new FetchTopic(struct.addElement(TOPICS));
    }

    public List<ForgottenTopic> forgottenTopicsData() {
        return Views.structs(struct.get(FORGOTTEN_TOPICS_DATA), ForgottenTopic::new);
    }

    public ForgottenTopic addForgottenTopicsData() {
        return new ForgottenTopic(struct.addElement(FORGOTTEN_TOPICS_DATA));
    }

    public String rackId() {
        return (String) struct.get(RACK_ID);
    }

    public FetchRequestView rackId(String value) {
        struct.set(RACK_ID, value);
        return this;
    }

    public static final class ReplicaState {
        static final StructSchema SCHEMA = FetchRequestView.SCHEMA.structOf("ReplicaState");
        private static final int REPLICA_ID = SCHEMA.indexOf("ReplicaId");
        private static final int REPLICA_EPOCH = SCHEMA.indexOf("ReplicaEpoch");

        private final Struct struct;

        public ReplicaState(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ReplicaState() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int replicaId() {
            return (Integer) struct.get(REPLICA_ID);
        }

        public ReplicaState replicaId(int value) {
            struct.set(REPLICA_ID, value);
            return this;
        }

        public long replicaEpoch() {
            return (Long) struct.get(REPLICA_EPOCH);
        }

        public ReplicaState replicaEpoch(long value) {
            struct.set(REPLICA_EPOCH, value);
            return this;
        }
    }

    public static final class FetchTopic {
        static final StructSchema SCHEMA = FetchRequestView.SCHEMA.structOf("Topics");
        private static final int TOPIC = SCHEMA.indexOf("Topic");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public FetchTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public FetchTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String topic() {
            return (String) struct.get(TOPIC);
        }

        public FetchTopic topic(String value) {
            struct.set(TOPIC, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public FetchTopic topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<FetchPartition> partitions() {
            return Views.structs(struct.get(PARTITIONS), FetchPartition::new);
        }

        public FetchPartition addPartition() {
            return new FetchPartition(struct.addElement(PARTITIONS));
        }
    }

    public static final class ForgottenTopic {
        static final StructSchema SCHEMA = FetchRequestView.SCHEMA.structOf("ForgottenTopicsData");
        private static final int TOPIC = SCHEMA.indexOf("Topic");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public ForgottenTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ForgottenTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String topic() {
            return (String) struct.get(TOPIC);
        }

        public ForgottenTopic topic(String value) {
            struct.set(TOPIC, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public ForgottenTopic topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<Integer> partitions() {
            return Views.scalars(struct.get(PARTITIONS));
        }

        public ForgottenTopic partitions(List<Integer> value) {
            struct.set(PARTITIONS, value);
            return this;
        }
    }

    public static final class FetchPartition {
        static final StructSchema SCHEMA = FetchTopic.SCHEMA.structOf("Partitions");
        private static final int PARTITION = SCHEMA.indexOf("Partition");
        private static final int CURRENT_LEADER_EPOCH = SCHEMA.indexOf("CurrentLeaderEpoch");
        private static final int FETCH_OFFSET = SCHEMA.indexOf("FetchOffset");
        private static final int LAST_FETCHED_EPOCH = SCHEMA.indexOf("LastFetchedEpoch");
        private static final int LOG_START_OFFSET = SCHEMA.indexOf("LogStartOffset");
        private static final int PARTITION_MAX_BYTES = SCHEMA.indexOf("PartitionMaxBytes");
        private static final int REPLICA_DIRECTORY_ID = SCHEMA.indexOf("ReplicaDirectoryId");
        private static final int HIGH_WATERMARK = SCHEMA.indexOf("HighWatermark");

        private final Struct struct;

        public FetchPartition(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public FetchPartition() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partition() {
            return (Integer) struct.get(PARTITION);
        }

        public FetchPartition partition(int value) {
            struct.set(PARTITION, value);
            return this;
        }

        public int currentLeaderEpoch() {
            return (Integer) struct.get(CURRENT_LEADER_EPOCH);
        }

        public FetchPartition currentLeaderEpoch(int value) {
            struct.set(CURRENT_LEADER_EPOCH, value);
            return this;
        }

        public long fetchOffset() {
            return (Long) struct.get(FETCH_OFFSET);
        }

        public FetchPartition fetchOffset(long value) {
            struct.set(FETCH_OFFSET, value);
            return this;
        }

        public int lastFetchedEpoch() {
            return (Integer) struct.get(LAST_FETCHED_EPOCH);
        }

        public FetchPartition lastFetchedEpoch(int value) {
            struct.set(LAST_FETCHED_EPOCH, value);
            return this;
        }

        public long logStartOffset() {
            return (Long) struct.get(LOG_START_OFFSET);
        }

        public FetchPartition logStartOffset(long value) {
            struct.set(LOG_START_OFFSET, value);
            return this;
        }

        public int partitionMaxBytes() {
            return (Integer) struct.get(PARTITION_MAX_BYTES);
        }

        public FetchPartition partitionMaxBytes(int value) {
            struct.set(PARTITION_MAX_BYTES, value);
            return this;
        }

        public UUID replicaDirectoryId() {
            return (UUID) struct.get(REPLICA_DIRECTORY_ID);
        }

        public FetchPartition replicaDirectoryId(UUID value) {
            struct.set(REPLICA_DIRECTORY_ID, value);
            return this;
        }

        public long highWatermark() {
            return (Long) struct.get(HIGH_WATERMARK);
        }

        public FetchPartition highWatermark(long value) {
            struct.set(HIGH_WATERMARK, value);
            return this;
        }
    }
}
