package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of Heartbeat response bodies of every version; fields a version lacks read as their defaults. */
public final class HeartbeatResponseView {
    static final StructSchema SCHEMA = ApiKey.HEARTBEAT.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");

    private final Struct struct;

    public HeartbeatResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public HeartbeatResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public HeartbeatResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public HeartbeatResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }
}
