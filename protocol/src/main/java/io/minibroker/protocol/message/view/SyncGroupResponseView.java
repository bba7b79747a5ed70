package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of SyncGroup response bodies of every version; fields a version lacks read as their defaults. */
public final class SyncGroupResponseView {
    static final StructSchema SCHEMA = ApiKey.SYNC_GROUP.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int PROTOCOL_TYPE = SCHEMA.indexOf("ProtocolType");
    private static final int PROTOCOL_NAME = SCHEMA.indexOf("ProtocolName");
    private static final int ASSIGNMENT = SCHEMA.indexOf("Assignment");

    private final Struct struct;

    public SyncGroupResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public SyncGroupResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public SyncGroupResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public SyncGroupResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public String protocolType() {
        return (String) struct.get(PROTOCOL_TYPE);
    }

    public SyncGroupResponseView protocolType(String value) {
        struct.set(PROTOCOL_TYPE, value);
        return this;
    }

    public String protocolName() {
        return (String) struct.get(PROTOCOL_NAME);
    }

    public SyncGroupResponseView protocolName(String value) {
        struct.set(PROTOCOL_NAME, value);
        return this;
    }

    public byte[] assignment() {
        return (byte[]) struct.get(ASSIGNMENT);
    }

    public SyncGroupResponseView assignment(byte[] value) {
        struct.set(ASSIGNMENT, value);
        return this;
    }
}
