package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of Metadata request bodies of every version; fields a version lacks read as their defaults. */
public final class MetadataRequestView {
    static final StructSchema SCHEMA = ApiKey.METADATA.request().body();
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int ALLOW_AUTO_TOPIC_CREATION = SCHEMA.indexOf("AllowAutoTopicCreation");
    private static final int INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS = SCHEMA.indexOf("IncludeClusterAuthorizedOperations");
    private static final int INCLUDE_TOPIC_AUTHORIZED_OPERATIONS = SCHEMA.indexOf("IncludeTopicAuthorizedOperations");

    private final Struct struct;

    public MetadataRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public MetadataRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public List<MetadataRequestTopic> topics() {
        return Views.structs(struct.get(TOPICS), MetadataRequestTopic::new);
    }

    public MetadataRequestTopic addTopic() {
        return new MetadataRequestTopic(struct.addElement(TOPICS));
    }

    public boolean allowAutoTopicCreation() {
        return (Boolean) struct.get(ALLOW_AUTO_TOPIC_CREATION);
    }

    public MetadataRequestView allowAutoTopicCreation(boolean value) {
        struct.set(ALLOW_AUTO_TOPIC_CREATION, value);
        return this;
    }

    public boolean includeClusterAuthorizedOperations() {
        return (Boolean) struct.get(INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS);
    }

    public MetadataRequestView includeClusterAuthorizedOperations(boolean value) {
        struct.set(INCLUDE_CLUSTER_AUTHORIZED_OPERATIONS, value);
        return this;
    }

    public boolean includeTopicAuthorizedOperations() {
        return (Boolean) struct.get(INCLUDE_TOPIC_AUTHORIZED_OPERATIONS);
    }

    public MetadataRequestView includeTopicAuthorizedOperations(boolean value) {
        struct.set(INCLUDE_TOPIC_AUTHORIZED_OPERATIONS, value);
        return this;
    }

    public static final class MetadataRequestTopic {
        static final StructSchema SCHEMA = MetadataRequestView.SCHEMA.structOf("Topics");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int NAME = SCHEMA.indexOf("Name");

        private final Struct struct;

        public MetadataRequestTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public MetadataRequestTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public MetadataRequestTopic topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public MetadataRequestTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }
    }
}
