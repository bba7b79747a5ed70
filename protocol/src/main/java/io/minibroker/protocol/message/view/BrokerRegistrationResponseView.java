package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of BrokerRegistration response bodies of every version; fields a version lacks read as their defaults. */
public final class BrokerRegistrationResponseView {
    static final StructSchema SCHEMA = ApiKey.BROKER_REGISTRATION.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int BROKER_EPOCH = SCHEMA.indexOf("BrokerEpoch");

    private final Struct struct;

    public BrokerRegistrationResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public BrokerRegistrationResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public BrokerRegistrationResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public BrokerRegistrationResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public long brokerEpoch() {
        return (Long) struct.get(BROKER_EPOCH);
    }

    public BrokerRegistrationResponseView brokerEpoch(long value) {
        struct.set(BROKER_EPOCH, value);
        return this;
    }
}
