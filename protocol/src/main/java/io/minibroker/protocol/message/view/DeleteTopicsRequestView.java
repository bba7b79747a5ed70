package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of DeleteTopics request bodies of every version; fields a version lacks read as their defaults. */
public final class DeleteTopicsRequestView {
    static final StructSchema SCHEMA = ApiKey.DELETE_TOPICS.request().body();
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int TOPIC_NAMES = SCHEMA.indexOf("TopicNames");
    private static final int TIMEOUT_MS = SCHEMA.indexOf("TimeoutMs");

    private final Struct struct;

    public DeleteTopicsRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public DeleteTopicsRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public List<DeleteTopicState> topics() {
        return Views.structs(struct.get(TOPICS), DeleteTopicState::new);
    }

    public DeleteTopicState addTopic() {
        return new DeleteTopicState(struct.addElement(TOPICS));
    }

    public List<String> topicNames() {
        return Views.scalars(struct.get(TOPIC_NAMES));
    }

    public DeleteTopicsRequestView topicNames(List<String> value) {
        struct.set(TOPIC_NAMES, value);
        return this;
    }

    public int timeoutMs() {
        return (Integer) struct.get(TIMEOUT_MS);
    }

    public DeleteTopicsRequestView timeoutMs(int value) {
        struct.set(TIMEOUT_MS, value);
        return this;
    }

    public static final class DeleteTopicState {
        static final StructSchema SCHEMA = DeleteTopicsRequestView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");

        private final Struct struct;

        public DeleteTopicState(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public DeleteTopicState() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public DeleteTopicState name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public DeleteTopicState topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }
    }
}
