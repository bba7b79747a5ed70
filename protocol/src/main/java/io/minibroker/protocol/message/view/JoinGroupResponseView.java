package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of JoinGroup response bodies of every version; fields a version lacks read as their defaults. */
public final class JoinGroupResponseView {
    static final StructSchema SCHEMA = ApiKey.JOIN_GROUP.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int GENERATION_ID = SCHEMA.indexOf("GenerationId");
    private static final int PROTOCOL_TYPE = SCHEMA.indexOf("ProtocolType");
    private static final int PROTOCOL_NAME = SCHEMA.indexOf("ProtocolName");
    private static final int LEADER = SCHEMA.indexOf("Leader");
    private static final int SKIP_ASSIGNMENT = SCHEMA.indexOf("SkipAssignment");
    private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
    private static final int MEMBERS = SCHEMA.indexOf("Members");

    private final Struct struct;

    public JoinGroupResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public JoinGroupResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public JoinGroupResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public JoinGroupResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public int generationId() {
        return (Integer) struct.get(GENERATION_ID);
    }

    public JoinGroupResponseView generationId(int value) {
        struct.set(GENERATION_ID, value);
        return this;
    }

    public String protocolType() {
        return (String) struct.get(PROTOCOL_TYPE);
    }

    public JoinGroupResponseView protocolType(String value) {
        struct.set(PROTOCOL_TYPE, value);
        return this;
    }

    public String protocolName() {
        return (String) struct.get(PROTOCOL_NAME);
    }

    public JoinGroupResponseView protocolName(String value) {
        struct.set(PROTOCOL_NAME, value);
        return this;
    }

    public String leader() {
        return (String) struct.get(LEADER);
    }

    public JoinGroupResponseView leader(String value) {
        struct.set(LEADER, value);
        return this;
    }

    public boolean skipAssignment() {
        return (Boolean) struct.get(SKIP_ASSIGNMENT);
    }

    public JoinGroupResponseView skipAssignment(boolean value) {
        struct.set(SKIP_ASSIGNMENT, value);
        return this;
    }

    public String memberId() {
        return (String) struct.get(MEMBER_ID);
    }

    public JoinGroupResponseView memberId(String value) {
        struct.set(MEMBER_ID, value);
        return this;
    }

    public List<JoinGroupResponseMember> members() {
        return Views.structs(struct.get(MEMBERS), JoinGroupResponseMember::new);
    }

    public JoinGroupResponseMember addMember() {
        return new JoinGroupResponseMember(struct.addElement(MEMBERS));
    }

    public static final class JoinGroupResponseMember {
        static final StructSchema SCHEMA = JoinGroupResponseView.SCHEMA.structOf("Members");
        private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
        private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");
        private static final int METADATA = SCHEMA.indexOf("Metadata");

        private final Struct struct;

        public JoinGroupResponseMember(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public JoinGroupResponseMember() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String memberId() {
            return (String) struct.get(MEMBER_ID);
        }

        public JoinGroupResponseMember memberId(String value) {
            struct.set(MEMBER_ID, value);
            return this;
        }

        public String groupInstanceId() {
            return (String) struct.get(GROUP_INSTANCE_ID);
        }

        public JoinGroupResponseMember groupInstanceId(String value) {
            struct.set(GROUP_INSTANCE_ID, value);
            return this;
        }

        public byte[] metadata() {
            return (byte[]) struct.get(METADATA);
        }

        public JoinGroupResponseMember metadata(byte[] value) {
            struct.set(METADATA, value);
            return this;
        }
    }
}
