package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of DeleteTopics response bodies of every version; fields a version lacks read as their defaults. */
public final class DeleteTopicsResponseView {
    static final StructSchema SCHEMA = ApiKey.DELETE_TOPICS.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int RESPONSES = SCHEMA.indexOf("Responses");

    private final Struct struct;

    public DeleteTopicsResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public DeleteTopicsResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public DeleteTopicsResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public List<DeletableTopicResult> responses() {
        return Views.structs(struct.get(RESPONSES), DeletableTopicResult::new);
    }

    public DeletableTopicResult addResponse() {
        return new DeletableTopicResult(struct.addElement(RESPONSES));
    }

    public static final class DeletableTopicResult {
        static final StructSchema SCHEMA = DeleteTopicsResponseView.SCHEMA.structOf("Responses");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
        private static final int ERROR_MESSAGE = SCHEMA.indexOf("ErrorMessage");

        private final Struct struct;

        public DeletableTopicResult(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public DeletableTopicResult() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public DeletableTopicResult name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public DeletableTopicResult topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public DeletableTopicResult errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }

        public String errorMessage() {
            return (String) struct.get(ERROR_MESSAGE);
        }

        public DeletableTopicResult errorMessage(String value) {
            struct.set(ERROR_MESSAGE, value);
            return this;
        }
    }
}
