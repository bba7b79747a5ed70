package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of LeaveGroup response bodies of every version; fields a version lacks read as their defaults. */
public final class LeaveGroupResponseView {
    static final StructSchema SCHEMA = ApiKey.LEAVE_GROUP.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int MEMBERS = SCHEMA.indexOf("Members");

    private final Struct struct;

    public LeaveGroupResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public LeaveGroupResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public LeaveGroupResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public LeaveGroupResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public List<MemberResponse> members() {
        return Views.structs(struct.get(MEMBERS), MemberResponse::new);
    }

    public MemberResponse addMember() {
        return new MemberResponse(struct.addElement(MEMBERS));
    }

    public static final class MemberResponse {
        static final StructSchema SCHEMA = LeaveGroupResponseView.SCHEMA.structOf("Members");
        private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
        private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");
        private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

        private final Struct struct;

        public MemberResponse(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public MemberResponse() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String memberId() {
            return (String) struct.get(MEMBER_ID);
        }

        public MemberResponse memberId(String value) {
            struct.set(MEMBER_ID, value);
            return this;
        }

        public String groupInstanceId() {
            return (String) struct.get(GROUP_INSTANCE_ID);
        }

        public MemberResponse groupInstanceId(String value) {
            struct.set(GROUP_INSTANCE_ID, value);
            return this;
        }

        public short errorCode() {
            return (Short) struct.get(ERROR_CODE);
        }

        public MemberResponse errorCode(short value) {
            struct.set(ERROR_CODE, value);
            return this;
        }
    }
}
