package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.UUID;

/** Typed view of Produce request bodies of every version; fields a version lacks read as their defaults. */
public final class ProduceRequestView {
    static final StructSchema SCHEMA = ApiKey.PRODUCE.request().body();
    private static final int TRANSACTIONAL_ID = SCHEMA.indexOf("TransactionalId");
    private static final int ACKS = SCHEMA.indexOf("Acks");
    private static final int TIMEOUT_MS = SCHEMA.indexOf("TimeoutMs");
    private static final int TOPIC_DATA = SCHEMA.indexOf("TopicData");

    private final Struct struct;

    public ProduceRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public ProduceRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String transactionalId() {
        return (String) struct.get(TRANSACTIONAL_ID);
    }

    public ProduceRequestView transactionalId(String value) {
        struct.set(TRANSACTIONAL_ID, value);
        return this;
    }

    public short acks() {
        return (Short) struct.get(ACKS);
    }

    public ProduceRequestView acks(short value) {
        struct.set(ACKS, value);
        return this;
    }

    public int timeoutMs() {
        return (Integer) struct.get(TIMEOUT_MS);
    }

    public ProduceRequestView timeoutMs(int value) {
        struct.set(TIMEOUT_MS, value);
        return this;
    }

    public List<TopicProduceData> topicData() {
        return Views.structs(struct.get(TOPIC_DATA), TopicProduceData::new);
    }

    public TopicProduceData addTopicData() {
        return new TopicProduceData(struct.addElement(TOPIC_DATA));
    }

    public static final class TopicProduceData {
        static final StructSchema SCHEMA = ProduceRequestView.SCHEMA.structOf("TopicData");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITION_DATA = SCHEMA.indexOf("PartitionData");

        private final Struct struct;

        public TopicProduceData(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public TopicProduceData() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public TopicProduceData name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public TopicProduceData topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<PartitionProduceData> partitionData() {
            return Views.structs(struct.get(PARTITION_DATA), PartitionProduceData::new);
        }

        public PartitionProduceData addPartitionData() {
            return new PartitionProduceData(struct.addElement(PARTITION_DATA));
        }
    }

    public static final class PartitionProduceData {
        static final StructSchema SCHEMA = TopicProduceData.SCHEMA.structOf("PartitionData");
        private static final int INDEX = SCHEMA.indexOf("Index");
        private static final int RECORDS = SCHEMA.indexOf("Records");

        private final Struct struct;

        public PartitionProduceData(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public PartitionProduceData() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public int index() {
            return (Integer) struct.get(INDEX);
        }

        public PartitionProduceData index(int value) {
            struct.set(INDEX, value);
            return this;
        }

        public ByteBuf records() {
            return (ByteBuf) struct.get(RECORDS);
        }

        public PartitionProduceData records(ByteBuf value) {
            struct.set(RECORDS, value);
            return this;
        }
    }
}
