package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import java.util.List;

/** Typed view of JoinGroup request bodies of every version; fields a version lacks read as their defaults. */
public final class JoinGroupRequestView {
    static final StructSchema SCHEMA = ApiKey.JOIN_GROUP.request().body();
    private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
    private static final int SESSION_TIMEOUT_MS = SCHEMA.indexOf("SessionTimeoutMs");
    private static final int REBALANCE_TIMEOUT_MS = SCHEMA.indexOf("RebalanceTimeoutMs");
    private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
    private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");
    private static final int PROTOCOL_TYPE = SCHEMA.indexOf("ProtocolType");
    private static final int PROTOCOLS = SCHEMA.indexOf("Protocols");
    private static final int REASON = SCHEMA.indexOf("Reason");

    private final Struct struct;

    public JoinGroupRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public JoinGroupRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String groupId() {
        return (String) struct.get(GROUP_ID);
    }

    public JoinGroupRequestView groupId(String value) {
        struct.set(GROUP_ID, value);
        return this;
    }

    public int sessionTimeoutMs() {
        return (Integer) struct.get(SESSION_TIMEOUT_MS);
    }

    public JoinGroupRequestView sessionTimeoutMs(int value) {
        struct.set(SESSION_TIMEOUT_MS, value);
        return this;
    }

    public int rebalanceTimeoutMs() {
        return (Integer) struct.get(REBALANCE_TIMEOUT_MS);
    }

    public JoinGroupRequestView rebalanceTimeoutMs(int value) {
        struct.set(REBALANCE_TIMEOUT_MS, value);
        return this;
    }

    public String memberId() {
        return (String) struct.get(MEMBER_ID);
    }

    public JoinGroupRequestView memberId(String value) {
        struct.set(MEMBER_ID, value);
        return this;
    }

    public String groupInstanceId() {
        return (String) struct.get(GROUP_INSTANCE_ID);
    }

    public JoinGroupRequestView groupInstanceId(String value) {
        struct.set(GROUP_INSTANCE_ID, value);
        return this;
    }

    public String protocolType() {
        return (String) struct.get(PROTOCOL_TYPE);
    }

    public JoinGroupRequestView protocolType(String value) {
        struct.set(PROTOCOL_TYPE, value);
        return this;
    }

    public List<JoinGroupRequestProtocol> protocols() {
        return Views.structs(struct.get(PROTOCOLS), JoinGroupRequestProtocol::new);
    }

    public JoinGroupRequestProtocol addProtocol() {
        return new JoinGroupRequestProtocol(struct.addElement(PROTOCOLS));
    }

    public String reason() {
        return (String) struct.get(REASON);
    }

    public JoinGroupRequestView reason(String value) {
        struct.set(REASON, value);
        return this;
    }

    public static final class JoinGroupRequestProtocol {
        static final StructSchema SCHEMA = JoinGroupRequestView.SCHEMA.structOf("Protocols");
        private static final int NAME = SCHEMA.indexOf("Name");
        private static final int METADATA = SCHEMA.indexOf("Metadata");

        private final Struct struct;

        public JoinGroupRequestProtocol(Struct struct) {
            this.struct = Views.check(struct, SCHEMA);
        }

        public JoinGroupRequestProtocol() {
            this(SCHEMA.newStruct());
        }

        public Struct struct() {
            return struct;
        }

        public String name() {
            return (String) struct.get(NAME);
        }

        public JoinGroupRequestProtocol name(String value) {
            struct.set(NAME, value);
            return this;
        }

        public byte[] metadata() {
            return (byte[]) struct.get(METADATA);
        }

        public JoinGroupRequestProtocol metadata(byte[] value) {
            struct.set(METADATA, value);
            return this;
        }
    }
}
