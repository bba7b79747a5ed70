package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of ListOffsets response bodies of every version; fields a version lacks read as their defaults. */
public final class ListOffsetsResponseView {
    static final StructSchema SCHEMA = ApiKey.LIST_OFFSETS.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int TOPICS = SCHEMA.indexOf("Topics");

    private final Struct struct;

    public ListOffsetsResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public ListOffsetsResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public ListOffsetsResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<ListOffsetsTopicResponse> topics() {
        return Views.structs(struct.get(TOPICS), ListOffsetsTopicResponse::new);
    }

    public ListOffsetsTopicResponse addTopic() {
        return new ListOffsetsTopicResponse(struct.addElement(TOPICS));
    }

    public static final class ListOffsetsTopicResponse {
        static final StructSchema SCHEMA = ListOffsetsResponseView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int PARTITIONS = SCHEMA.indexOf("Partitions");

        private final Struct struct;

        public ListOffsetsTopicResponse(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ListOffsetsTopicResponse() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public ListOffsetsTopicResponse name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public List<ListOffsetsPartitionResponse> partitions() {
            return Views.structs(struct.get(PARTITIONS), ListOffsetsPartitionResponse::new);
        }

        public ListOffsetsPartitionResponse addPartition() {
            return new ListOffsetsPartitionResponse(struct.addElement(PARTITIONS));
        }
    }

    public static final class ListOffsetsPartitionResponse {
        static final StructSchema SCHEMA = ListOffsetsTopicResponse.SCHEMA.structOf("Partitions");
        private static final int PARTITION_INDEX = SCHEMA.indexOf("PartitionIndex");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int TIMESTAMP = SCHEMA.indexOf("Timestamp");
        private static final int OFFSET = SCHEMA.indexOf("Offset");
        private static final int LEADER_EPOCH = SCHEMA.indexOf("LeaderEpoch");

        private final Struct struct;

        public ListOffsetsPartitionResponse(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public ListOffsetsPartitionResponse() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int partitionIndex() {
            return (Integer) struct.get(PARTITION_INDEX);
        }

        public ListOffsetsPartitionResponse partitionIndex(int value) {
            struct.set(PARTITION_INDEX, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public ListOffsetsPartitionResponse errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public long timestamp() {
            return (Long) struct.get(TIMESTAMP);
        }

        public ListOffsetsPartitionResponse timestamp(long value) {
            struct.set(TIMESTAMP, value);
            return this;
        }

        public long offset() {
            return (Long) struct.get(OFFSET);
        }

        public ListOffsetsPartitionResponse offset(long value) {
            struct.set(OFFSET, value);
            return this;
        }

        public int leaderEpoch() {
            return (Integer) struct.get(LEADER_EPOCH);
        }

        public ListOffsetsPartitionResponse leaderEpoch(int value) {
            struct.set(LEADER_EPOCH, value);
            return this;
        }
    }
}
