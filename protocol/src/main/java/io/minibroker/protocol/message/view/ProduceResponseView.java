package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of Produce response bodies of every version; fields a version lacks read as their defaults. */
public final class ProduceResponseView {
    static final StructSchema SCHEMA = ApiKey.PRODUCE.response().body();
    private static final int RESPONSES = SCHEMA.indexOf("Responses");
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int NODE_ENDPOINTS = SCHEMA.indexOf("NodeEndpoints");

    private final Struct struct;

    public ProduceResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public ProduceResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public List<TopicProduceResponse> responses() {
        return Views.structs(struct.get(RESPONSES), TopicProduceResponse::new);
    }

    public TopicProduceResponse addResponse() {
        return new TopicProduceResponse(struct.addElement(RESPONSES));
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public ProduceResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<NodeEndpoint> nodeEndpoints() {
        return Views.structs(struct.get(NODE_ENDPOINTS), NodeEndpoint::new);
    }

    public NodeEndpoint addNodeEndpoint() {
        return new NodeEndpoint(struct.addElement(NODE_ENDPOINTS));
    }

    public static final class TopicProduceResponse {
        static final StructSchema SCHEMA = ProduceResponseView.SCHEMA.structOf("Responses");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITION_RESPONSES = SCHEMA.indexOf("PartitionResponses");

        private final Struct struct;

        public TopicProduceResponse(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public TopicProduceResponse() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public TopicProduceResponse name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public TopicProduceResponse topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<PartitionProduceResponse> partitionResponses() {
            return Views.structs(struct.get(PARTITION_RESPONSES), PartitionProduceResponse::new);
        }

        public PartitionProduceResponse addPartitionResponse() {
            return new PartitionProduceResponse(struct.addElement(PARTITION_RESPONSES));
        }
    }

    public static final class NodeEndpoint {
        static final StructSchema SCHEMA = ProduceResponseView.SCHEMA.structOf("NodeEndpoints");
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

    public static final class PartitionProduceResponse {
        static final StructSchema SCHEMA = TopicProduceResponse.SCHEMA.structOf("PartitionResponses");
        private static final int INDEX = SCHEMA.indexOf("Index");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int BASE_OFFSET = SCHEMA.indexOf("BaseOffset");
        private static final int LOG_APPEND_TIME_MS = SCHEMA.indexOf("LogAppendTimeMs");
        private static final int LOG_START_OFFSET = SCHEMA.indexOf("LogStartOffset");
        private static final int RECORD_ERRORS = SCHEMA.indexOf("RecordErrors");
        private static final int ERROR_MESSAGE = SCHEMA.indexOf("ErrorMessage");
        private static final int CURRENT_LEADER = SCHEMA.indexOf("CurrentLeader");

        private final Struct struct;

        public PartitionProduceResponse(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public PartitionProduceResponse() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int index() {
            return (Integer) struct.get(INDEX);
        }

        public PartitionProduceResponse index(int value) {
            struct.set(INDEX, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public PartitionProduceResponse errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public long baseOffset() {
            return (Long) struct.get(BASE_OFFSET);
        }

        public PartitionProduceResponse baseOffset(long value) {
            struct.set(BASE_OFFSET, value);
            return this;
        }

        public long logAppendTimeMs() {
            return (Long) struct.get(LOG_APPEND_TIME_MS);
        }

        public PartitionProduceResponse logAppendTimeMs(long value) {
            struct.set(LOG_APPEND_TIME_MS, value);
            return this;
        }

        public long logStartOffset() {
            return (Long) struct.get(LOG_START_OFFSET);
        }

        public PartitionProduceResponse logStartOffset(long value) {
            struct.set(LOG_START_OFFSET, value);
            return this;
        }

        public List<BatchIndexAndErrorMessage> recordErrors() {
            return Views.structs(struct.get(RECORD_ERRORS), BatchIndexAndErrorMessage::new);
        }

        public BatchIndexAndErrorMessage addRecordError() {
            return new BatchIndexAndErrorMessage(struct.addElement(RECORD_ERRORS));
        }

        public String errorMessage() {
            return (String) struct.get(ERROR_MESSAGE);
        }

        public PartitionProduceResponse errorMessage(String value) {
            struct.set(ERROR_MESSAGE, value);
            return this;
        }

        public LeaderIdAndEpoch currentLeader() {
            return new LeaderIdAndEpoch((Struct) struct.get(CURRENT_LEADER));
        }
    }

    public static final class BatchIndexAndErrorMessage {
        static final StructSchema SCHEMA = PartitionProduceResponse.SCHEMA.structOf("RecordErrors");
        private static final int BATCH_INDEX = SCHEMA.indexOf("BatchIndex");
        private static final int BATCH_INDEX_ERROR_MESSAGE = SCHEMA.indexOf("BatchIndexErrorMessage");

        private final Struct struct;

        public BatchIndexAndErrorMessage(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public BatchIndexAndErrorMessage() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int batchIndex() {
            return (Integer) struct.get(BATCH_INDEX);
        }

        public BatchIndexAndErrorMessage batchIndex(int value) {
            struct.set(BATCH_INDEX, value);
            return this;
        }

        public String batchIndexErrorMessage() {
            return (String) struct.get(BATCH_INDEX_ERROR_MESSAGE);
        }

        public BatchIndexAndErrorMessage batchIndexErrorMessage(String value) {
            struct.set(BATCH_INDEX_ERROR_MESSAGE, value);
            return this;
        }
    }

    public static final class LeaderIdAndEpoch {
        static final StructSchema SCHEMA = PartitionProduceResponse.SCHEMA.structOf("CurrentLeader");
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
}
