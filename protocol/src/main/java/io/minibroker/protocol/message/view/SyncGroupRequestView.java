package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of SyncGroup request bodies of every version; fields a version lacks read as their defaults. */
public final class SyncGroupRequestView {
    static final StructSchema SCHEMA = ApiKey.SYNC_GROUP.request().body();
    private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
    private static final int GENERATION_ID = SCHEMA.indexOf("GenerationId");
    private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
    private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");
    private static final int PROTOCOL_TYPE = SCHEMA.indexOf("ProtocolType");
    private static final int PROTOCOL_NAME = SCHEMA.indexOf("ProtocolName");
    private static final int ASSIGNMENTS = SCHEMA.indexOf("Assignments");

    private final Struct struct;

    public SyncGroupRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public SyncGroupRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String groupId() {
        return (String) struct.get(GROUP_ID);
    }

    public SyncGroupRequestView groupId(String value) {
        struct.set(GROUP_ID, value);
        return this;
    }

    public int generationId() {
        return (Integer) struct.get(GENERATION_ID);
    }

    public SyncGroupRequestView generationId(int value) {
        struct.set(GENERATION_ID, value);
        return this;
    }

    public String memberId() {
        return (String) struct.get(MEMBER_ID);
    }

    public SyncGroupRequestView memberId(String value) {
        struct.set(MEMBER_ID, value);
        return this;
    }

    public String groupInstanceId() {
        return (String) struct.get(GROUP_INSTANCE_ID);
    }

    public SyncGroupRequestView groupInstanceId(String value) {
        struct.set(GROUP_INSTANCE_ID, value);
        return this;
    }

    public String protocolType() {
        return (String) struct.get(PROTOCOL_TYPE);
    }

    public SyncGroupRequestView protocolType(String value) {
        struct.set(PROTOCOL_TYPE, value);
        return this;
    }

    public String protocolName() {
        return (String) struct.get(PROTOCOL_NAME);
    }

    public SyncGroupRequestView protocolName(String value) {
        struct.set(PROTOCOL_NAME, value);
        return this;
    }

    public List<SyncGroupRequestAssignment> assignments() {
        return Views.structs(struct.get(ASSIGNMENTS), SyncGroupRequestAssignment::new);
    }

    public SyncGroupRequestAssignment addAssignment() {
        return new SyncGroupRequestAssignment(struct.addElement(ASSIGNMENTS));
    }

    public static final class SyncGroupRequestAssignment {
        static final StructSchema SCHEMA = SyncGroupRequestView.SCHEMA.structOf("Assignments");
        private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
        private static final int ASSIGNMENT = SCHEMA.indexOf("Assignment");

        private final Struct struct;

        public SyncGroupRequestAssignment(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public SyncGroupRequestAssignment() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String memberId() {
            return (String) struct.get(MEMBER_ID);
        }

        public SyncGroupRequestAssignment memberId(String value) {
            struct.set(MEMBER_ID, value);
            return this;
        }

        public byte[] assignment() {
            return (byte[]) struct.get(ASSIGNMENT);
        }

        public SyncGroupRequestAssignment assignment(byte[] value) {
            struct.set(ASSIGNMENT, value);
            return this;
        }
    }
}
