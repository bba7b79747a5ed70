package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of Heartbeat request bodies of every version; fields a version lacks read as their defaults. */
public final class HeartbeatRequestView {
    static final StructSchema SCHEMA = ApiKey.HEARTBEAT.request().body();
    private static final int GROUP_ID = SCHEMA.indexOf("GroupId");
    private static final int GENERATION_ID = SCHEMA.indexOf("GenerationId");
    private static final int MEMBER_ID = SCHEMA.indexOf("MemberId");
    private static final int GROUP_INSTANCE_ID = SCHEMA.indexOf("GroupInstanceId");

    private final Struct struct;

    public HeartbeatRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public HeartbeatRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String groupId() {
        return (String) struct.get(GROUP_ID);
    }

    public HeartbeatRequestView groupId(String value) {
        struct.set(GROUP_ID, value);
        return this;
    }

    public int generationId() {
        return (Integer) struct.get(GENERATION_ID);
    }

    public HeartbeatRequestView generationId(int value) {
        struct.set(GENERATION_ID, value);
        return this;
    }

    public String memberId() {
        return (String) struct.get(MEMBER_ID);
    }

    public HeartbeatRequestView memberId(String value) {
        struct.set(MEMBER_ID, value);
        return this;
    }

    public String groupInstanceId() {
        return (String) struct.get(GROUP_INSTANCE_ID);
    }

    public HeartbeatRequestView groupInstanceId(String value) {
        struct.set(GROUP_INSTANCE_ID, value);
        return this;
    }
}
