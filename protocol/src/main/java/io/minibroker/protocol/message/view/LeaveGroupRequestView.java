package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of LeaveGroup request bodies of every version; fields a version lacks read as their defaults. */
public final class LeaveGroupRequestView {
    static final StructSchema SCHEMA = ApiKey.LEAVE_GROUP.request().body();
    private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
    private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
    private static final int MEMBERS = SCHEMA.indexOf("Members");

    private final Struct struct;

    public LeaveGroupRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public LeaveGroupRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String groupId() {
        return (String) struct.get(GROUP_ID);
    }

    public LeaveGroupRequestView groupId(String value) {
        struct.set(GROUP_ID, value);
        return this;
    }

    public String memberId() {
        return (String) struct.get(MEMBER_ID);
    }

    public LeaveGroupRequestView memberId(String value) {
        struct.set(MEMBER_ID, value);
        return this;
    }

    public List<MemberIdentity> members() {
        return Views.structs(struct.get(MEMBERS), MemberIdentity::new);
    }

    public MemberIdentity addMember() {
        return new MemberIdentity(struct.addElement(MEMBERS));
    }

    public static final class MemberIdentity {
        static final StructSchema SCHEMA = LeaveGroupRequestView.SCHEMA.structOf("Members");
        private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
        private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");
        private static final int REASON = SCHEMA.indexOf("Reason");

        private final Struct struct;

        public MemberIdentity(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public MemberIdentity() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String memberId() {
            return (String) struct.get(MEMBER_ID);
        }

        public MemberIdentity memberId(String value) {
            struct.set(MEMBER_ID, value);
            return this;
        }

        public String groupInstanceId() {
            return (String) struct.get(GROUP_INSTANCE_ID);
        }

        public MemberIdentity groupInstanceId(String value) {
            struct.set(GROUP_INSTANCE_ID, value);
            return this;
        }

        public String reason() {
            return (String) struct.get(REASON);
        }

        public MemberIdentity reason(String value) {
            struct.set(REASON, value);
            return this;
        }
    }
}
