package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of BrokerHeartbeat response bodies of every version; fields a version lacks read as their defaults. */
public final class BrokerHeartbeatResponseView {
    static final StructSchema SCHEMA = ApiKey.BROKER_HEARTBEAT.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int IS_CAUGHT_UP = SCHEMA.indexOf("IsCaughtUp");
    private static final int IS_FENCED = SCHEMA.indexOf("IsFenced");
    private static final int SHOULD_SHUT_DOWN = SCHEMA.indexOf("ShouldShutDown");

    private final Struct struct;

    public BrokerHeartbeatResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public BrokerHeartbeatResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public BrokerHeartbeatResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public BrokerHeartbeatResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public boolean isCaughtUp() {
        return (Boolean) struct.get(IS_CAUGHT_UP);
    }

    public BrokerHeartbeatResponseView isCaughtUp(boolean value) {
        struct.set(IS_CAUGHT_UP, value);
        return this;
    }

    public boolean isFenced() {
        return (Boolean) struct.get(IS_FENCED);
    }

    public BrokerHeartbeatResponseView isFenced(boolean value) {
        struct.set(IS_FENCED, value);
        return this;
    }

    public boolean shouldShutDown() {
        return (Boolean) struct.get(SHOULD_SHUT_DOWN);
    }

    public BrokerHeartbeatResponseView shouldShutDown(boolean value) {
        struct.set(SHOULD_SHUT_DOWN, value);
        return this;
    }
}
