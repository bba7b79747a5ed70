package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of CreateTopics response bodies of every version; fields a version lacks read as their defaults. */
public final class CreateTopicsResponseView {
    static final StructSchema SCHEMA = ApiKey.CREATE_TOPICS.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int TOPICS = SCHEMA.indexOf("Topics");

    private final Struct struct;

    public CreateTopicsResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public CreateTopicsResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public CreateTopicsResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<CreatableTopicResult> topics() {
        return Views.structs(struct.get(TOPICS), CreatableTopicResult::new);
    }

    public CreatableTopicResult addTopic() {
        return new CreatableTopicResult(struct.addElement(TOPICS));
    }

    public static final class CreatableTopicResult {
        static final StructSchema SCHEMA = CreateTopicsResponseView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int ERROR_MESSAGE = SCHEMA.indexOf("ErrorMessage");
        private static final int TOPIC_CONFIG_ERROR_CODE = SCHEMA.indexOf("TopicConfigErrorCode");
        private static final int NUM_PARTITIONS = SCHEMA.indexOf("NumPartitions");
        private static final int REPLICATION_FACTOR = SCHEMA.indexOf("ReplicationFactor");
        private static final int CONFIGS = SCHEMA.indexOf("Configs");

        private final Struct struct;

        public CreatableTopicResult(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public CreatableTopicResult() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public CreatableTopicResult name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public CreatableTopicResult topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public CreatableTopicResult errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public String errorMessage() {
            return (String) struct.get(ERROR_MESSAGE);
        }

        public CreatableTopicResult errorMessage(String value) {
            struct.set(ERROR_MESSAGE, value);
            return this;
        }

        public short topicConfigErrorCode() {
            return (Short) struct.get(TOPIC_CONFIG_ERROR_CODE);
        }

        public CreatableTopicResult topicConfigErrorCode(short value) {
            struct.set(TOPIC_CONFIG_ERROR_CODE, value);
            return this;
        }

        public int numPartitions() {
            return (Integer) struct.get(NUM_PARTITIONS);
        }

        public CreatableTopicResult numPartitions(int value) {
            struct.set(NUM_PARTITIONS, value);
            return this;
        }

        public short replicationFactor() {
            return (Short) struct.get(REPLICATION_FACTOR);
        }

        public CreatableTopicResult replicationFactor(short value) {
            struct.set(REPLICATION_FACTOR, value);
            return this;
        }

        public List<CreatableTopicConfigs> configs() {
            return Views.structs(struct.get(CONFIGS), CreatableTopicConfigs::new);
        }

        public CreatableTopicConfigs addConfig() {
            return new CreatableTopicConfigs(struct.addElement(CONFIGS));
        }
    }

    public static final class CreatableTopicConfigs {
        static final StructSchema SCHEMA = CreatableTopicResult.SCHEMA.structOf("Configs");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int VALUE = SCHEMA.indexOf("Value");
        private static final int READ_ONLY = SCHEMA.indexOf("ReadOnly");
        private static final int CONFIG_SOURCE = SCHEMA.indexOf("ConfigSource");
        private static final int IS_SENSITIVE = SCHEMA.indexOf("IsSensitive");

        private final Struct struct;

        public CreatableTopicConfigs(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public CreatableTopicConfigs() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public CreatableTopicConfigs name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public String value() {
            return (String) struct.get(VALUE);
        }

        public CreatableTopicConfigs value(String value) {
            struct.set(VALUE, value);
            return this;
        }

        public boolean readOnly() {
            return (Boolean) struct.get(READ_ONLY);
        }

        public CreatableTopicConfigs readOnly(boolean value) {
            struct.set(READ_ONLY, value);
            return this;
        }

        public byte configSource() {
            return (Byte) struct.get(CONFIG_SOURCE);
        }

        public CreatableTopicConfigs configSource(byte value) {
            struct.set(CONFIG_SOURCE, value);
            return this;
        }

        public boolean isSensitive() {
            return (Boolean) struct.get(IS_SENSITIVE);
        }

        public CreatableTopicConfigs isSensitive(boolean value) {
            struct.set(IS_SENSITIVE, value);
            return this;
        }
    }
}
