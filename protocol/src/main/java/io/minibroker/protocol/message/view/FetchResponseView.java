package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.UUID;

/** Typed view of Fetch response bodies of every version; fields a version lacks read as their defaults. */
public final class FetchResponseView {
    static final StructSchema SCHEMA = ApiKey.FETCH.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int SESSION_ID = SCHEMA.indexOf("SessionId");
    private static final int RESPONSES = SCHEMA.indexOf("Responses");
    private static final int NODE_ENDPOINTS = SCHEMA.indexOf("NodeEndpoints");

    private final Struct struct;

    public FetchResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public FetchResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public FetchResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public FetchResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public int sessionId() {
        return (Integer) struct.get(SESSION_ID);
    }

    public FetchResponseView sessionId(int value) {
        struct.set(SESSION_ID, value);
        return this;
    }

    public List<FetchableTopicResponse> responses() {
        return Views.structs(struct.get(RESPONSES), FetchableTopicResponse::new);
    }

    public FetchableTopicResponse addResponse() {
        return new FetchableTopicResponse(struct.addElement(RESPONSES));
    }

    public List<NodeEndpoint> nodeEndpoints() {
        return Views.structs(struct.get(NODE_ENDPOINTS), NodeEndpoint::new);
    }

    public NodeEndpoint addNodeEndpoint() {
        return new NodeEndpoint(struct.addElement(NODE_ENDPOINTS));
    }

    public static final class FetchableTopicResponse {
        static final StructSchema SCHEMA = FetchResponseView.SCHEMA.structOf("Responses");
        private static final int TOPIC = SCHEMA.indexOf("Topic");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public FetchableTopicResponse(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public FetchableTopicResponse() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String topic() {
            return (String) struct.get(TOPIC);
        }

        public FetchableTopicResponse topic(String value) {
            struct.set(TOPIC, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public FetchableTopicResponse topicId(UUID value) {
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

    public static final class NodeEndpoint {
        static final StructSchema SCHEMA = FetchResponseView.SCHEMA.structOf("NodeEndpoints");
        private static final int NODE_ID = SCHEMA.indexOf("NodeId");
        private static final int HOST = SCHEMA.indexOf("Host");
        private static final int PORT = SCHEMA.indexOf("Port");
        private static final int RACK = SCHEMA.indexOf("Rack");

        private final Struct struct;

        public NodeEndpoint(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public NodeEndpoint() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int nodeId() {
            return (Integer) struct.get(NODE_ID);
        }

        public NodeEndpoint nodeId(int value) {
            struct.set(NODE_ID, value);
            return this;
        }

        public String host() {
            return (String) struct.get(HOST);
        }

        public NodeEndpoint host(String value) {
            struct.set(HOST, value);
            return this;
        }

        public int port() {
            return (Integer) struct.get(PORT);
        }

        public NodeEndpoint port(int value) {
            struct.set(PORT, value);
            return this;
        }

        public String rack() {
            return (String) struct.get(RACK);
        }

        public NodeEndpoint rack(String value) {
            struct.set(RACK, value);
            return this;
        }
    }

    public static final class PartitionData {
        static final StructSchema SCHEMA = FetchableTopicResponse.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int HIGH_WATERMARK = SCHEMA.indexOf("HighWatermark");
        private static final int LAST_STABLE_OFFSET = SCHEMA.indexOf("LastStableOffset");
        private static final int LOG_START_OFFSET = SCHEMA.indexOf("LogStartOffset");
        private static final int DIVERGING_EPOCH = SCHEMA.indexOf("DivergingEpoch");
        private static final int CURRENT_LEADER = SCHEMA.indexOf("CurrentLeader");
        private static final int SNAPSHOT_ID = SCHEMA.indexOf("SnapshotId");
        private static final int ABORTED_TRANSACTIONS = SCHEMA.indexOf("AbortedTransactions");
        private static final int PREFERRED_READ_REPLICA = SCHEMA.indexOf("PreferredReadReplica");
        private static final int RECORDS = SCHEMA.indexOf("Records");

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

        public long highWatermark() {
            return (Long) struct.get(HIGH_WATERMARK);
        }

        public PartitionData highWatermark(long value) {
            struct.set(HIGH_WATERMARK, value);
            return this;
        }

        public long lastStableOffset() {
            return (Long) struct.get(LAST_STABLE_OFFSET);
        }

        public PartitionData lastStableOffset(long value) {
            struct.set(LAST_STABLE_OFFSET, value);
            return this;
        }

        public long logStartOffset() {
            return (Long) struct.get(LOG_START_OFFSET);
        }

        public PartitionData logStartOffset(long value) {
            struct.set(LOG_START_OFFSET, value);
            return this;
        }

        public EpochEndOffset divergingEpoch() {
            return new EpochEndOffset((Struct) struct.get(DIVERGING_EPOCH));
        }

        public LeaderIdAndEpoch currentLeader() {
            return new LeaderIdAndEpoch((Struct) struct.get(CURRENT_LEADER));
        }

        public SnapshotId snapshotId() {
            return new SnapshotId((Struct) struct.get(SNAPSHOT_ID));
        }

        public List<AbortedTransaction> abortedTransactions() {
            return Views.structs(struct.get(ABORTED_TRANSACTIONS), AbortedTransaction::new);
        }

        public AbortedTransaction addAbortedTransaction() {
            return new AbortedTransaction(struct.addElement(ABORTED_TRANSACTIONS));
        }

        public int preferredReadReplica() {
            return (Integer) struct.get(PREFERRED_READ_REPLICA);
        }

        public PartitionData preferredReadReplica(int value) {
            struct.set(PREFERRED_READ_REPLICA, value);
            return this;
        }

        public ByteBuf records() {
            return (ByteBuf) struct.get(RECORDS);
        }

        public PartitionData records(ByteBuf value) {
            struct.set(RECORDS, value);
            return this;
        }
    }

    public static final class EpochEndOffset {
        static final StructSchema SCHEMA = PartitionData.SCHEMA.structOf("DivergingEpoch");
        private static final int EPOCH = SCHEMA.indexOf("Epoch");
        private static final int END_OFFSET = SCHEMA.indexOf("EndOffset");

        private final Struct struct;

        public EpochEndOffset(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public EpochEndOffset() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int epoch() {
            return (Integer) struct.get(EPOCH);
        }

        public EpochEndOffset epoch(int value) {
            struct.set(EPOCH, value);
            return this;
        }

        public long endOffset() {
            return (Long) struct.get(END_OFFSET);
        }

        public EpochEndOffset endOffset(long value) {
            struct.set(END_OFFSET, value);
            return this;
        }
    }

    public static final class LeaderIdAndEpoch {
        static final StructSchema SCHEMA = PartitionData.SCHEMA.structOf("CurrentLeader");
        private static final int LEADER_ID = SCHEMA.indexOf("LeaderId");
        private static final int LEADER_EPOCH = SCHEMA.indexOf("LeaderEpoch");

        private final Struct struct;

        public LeaderIdAndEpoch(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public LeaderIdAndEpoch() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int leaderId() {
            return (Integer) struct.get(LEADER_ID);
        }

        public LeaderIdAndEpoch leaderId(int value) {
            struct.set(LEADER_ID, value);
            return this;
        }

        public int leaderEpoch() {
            return (Integer) struct.get(LEADER_EPOCH);
        }

        public LeaderIdAndEpoch leaderEpoch(int value) {
            struct.set(LEADER_EPOCH, value);
            return this;
        }
    }

    public static final class SnapshotId {
        static final StructSchema SCHEMA = PartitionData.SCHEMA.structOf("SnapshotId");
        private static final int END_OFFSET = SCHEMA.indexOf("EndOffset");
        private static final int EPOCH = SCHEMA.indexOf("Epoch");

        private final Struct struct;

        public SnapshotId(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public SnapshotId() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public long endOffset() {
            return (Long) struct.get(END_OFFSET);
        }

        public SnapshotId endOffset(long value) {
            struct.set(END_OFFSET, value);
            return this;
        }

        public int epoch() {
            return (Integer) struct.get(EPOCH);
        }

        public SnapshotId epoch(int value) {
            struct.set(EPOCH, value);
            return this;
        }
    }

    public static final class AbortedTransaction {
        static final StructSchema SCHEMA = PartitionData.SCHEMA.structOf("AbortedTransactions");
        private static final int PRODUCER_ID = SCHEMA.indexOf("ProducerId");
        private static final int FIRST_OFFSET = SCHEMA.indexOf("FirstOffset");

        private final Struct struct;

        public AbortedTransaction(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public AbortedTransaction() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public long producerId() {
            return (Long) struct.get(PRODUCER_ID);
        }

        public AbortedTransaction producerId(long value) {
            struct.set(PRODUCER_ID, value);
            return this;
        }

        public long firstOffset() {
            return (Long) struct.get(FIRST_OFFSET);
        }

        public AbortedTransaction firstOffset(long value) {
            struct.set(FIRST_OFFSET, value);
            return this;
        }
    }
}
