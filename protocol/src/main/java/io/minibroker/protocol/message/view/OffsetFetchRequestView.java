package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;
import java.util.UUID;

/** Typed view of OffsetFetch request bodies of every version; fields a version lacks read as their defaults. */
public final class OffsetFetchRequestView {
    static final StructSchema SCHEMA = ApiKey.OFFSET_FETCH.request().body();
    private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
    private static final int TOPICS = SCHEMA.indexOf("Topics");
    private static final int GROUPS = SCHEMA.indexOf("Groups");
    private static final int REQUIRE_STABLE = SCHEMA.indexOf("RequireStable");

    private final Struct struct;

    public OffsetFetchRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public OffsetFetchRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String groupId() {
        return (String) struct.get(GROUP_ID);
    }

    public OffsetFetchRequestView groupId(String value) {
        struct.set(GROUP_ID, value);
        return this;
    }

    public List<OffsetFetchRequestTopic> topics() {
        return Views.structs(struct.get(TOPICS), OffsetFetchRequestTopic::new);
    }

    public OffsetFetchRequestTopic addTopic() {
        return new OffsetFetchRequestTopic(struct.addElement(TOPICS));
    }

    public List<OffsetFetchRequestGroup> groups() {
        return Views.structs(struct.get(GROUPS), OffsetFetchRequestGroup::new);
    }

    public OffsetFetchRequestGroup addGroup() {
        return new OffsetFetchRequestGroup(struct.addElement(GROUPS));
    }

    public boolean requireStable() {
        return (Boolean) struct.get(REQUIRE_STABLE);
    }

    public OffsetFetchRequestView requireStable(boolean value) {
        struct.set(REQUIRE_STABLE, value);
        return this;
    }

    public static final class OffsetFetchRequestTopic {
        static final StructSchema SCHEMA = OffsetFetchRequestView.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int PARTITION_INDEXES = SCHEMA.indexOf("PartitionIndexes");

        private final Struct struct;

        public OffsetFetchRequestTopic(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchRequestTopic() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public OffsetFetchRequestTopic name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public List<Integer> partitionIndexes() {
            return Views.scalars(struct.get(PARTITION_INDEXES));
        }

        public OffsetFetchRequestTopic partitionIndexes(List<Integer> value) {
            struct.set(PARTITION_INDEXES, value);
            return this;
        }
    }

    public static final class OffsetFetchRequestGroup {
        static final StructSchema SCHEMA = OffsetFetchRequestView.SCHEMA.structOf("Groups");
        private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
        private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
        private static final int MEMBER_EPOCH = SCHEMA.indexOf("MemberEpoch");
        private static final int TOPICS = SCHEMA.indexOf("Topics");

        private final Struct struct;

        public OffsetFetchRequestGroup(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchRequestGroup() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String groupId() {
            return (String) struct.get(GROUP_ID);
        }

        public OffsetFetchRequestGroup groupId(String value) {
            struct.set(GROUP_ID, value);
            return this;
        }

        public String memberId() {
            return (String) struct.get(MEMBER_ID);
        }

        public OffsetFetchRequestGroup memberId(String value) {
            struct.set(MEMBER_ID, value);
            return this;
        }

        public int memberEpoch() {
            return (Integer) struct.get(MEMBER_EPOCH);
        }

        public OffsetFetchRequestGroup memberEpoch(int value) {
            struct.set(MEMBER_EPOCH, value);
            return this;
        }

        public List<OffsetFetchRequestTopics> topics() {
            return Views.structs(struct.get(TOPICS), OffsetFetchRequestTopics::new);
        }

        public OffsetFetchRequestTopics addTopic() {
            return new OffsetFetchRequestTopics(struct.addElement(TOPICS));
        }
    }

    public static final class OffsetFetchRequestTopics {
        static final StructSchema SCHEMA = OffsetFetchRequestGroup.SCHEMA.structOf("Topics");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int TOPIC_ID = SCHEMA.indexOf("TopicId");
        private static final int PARTITION_INDEXES = SCHEMA.indexOf("PartitionIndexes");

        private final Struct struct;

        public OffsetFetchRequestTopics(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public OffsetFetchRequestTopics() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public OffsetFetchRequestTopics name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public UUID topicId() {
            return (UUID) struct.get(TOPIC_ID);
        }

        public OffsetFetchRequestTopics topicId(UUID value) {
            struct.set(TOPIC_ID, value);
            return this;
        }

        public List<Integer> partitionIndexes() {
            return Views.scalars(struct.get(PARTITION_INDEXES));
        }

        public OffsetFetchRequestTopics partitionIndexes(List<Integer> value) {
            struct.set(PARTITION_INDEXES, value);
            return this;
        }
    }
}
