package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of InitProducerId response bodies of every version; fields a version lacks read as their defaults. */
public final class InitProducerIdResponseView {
    static final StructSchema SCHEMA = ApiKey.INIT_PRODUCER_ID.response().body();
    private static final int THROTTLE_TIME_MS = SCHEMA.indexOf("ThrottleTimeMs");
    private static final int ERROR_CODE = SCHEMA.indexOf("ErrorCode");
    private static final int PRODUCER_ID = SCHEMA.indexOf("ProducerId");
    private static final int PRODUCER_EPOCH = SCHEMA.indexOf("ProducerEpoch");
    private static final int ONGOING_TXN_PRODUCER_ID = SCHEMA.indexOf("OngoingTxnProducerId");
    private static final int ONGOING_TXN_PRODUCER_EPOCH = SCHEMA.indexOf("OngoingTxnProducerEpoch");

    private final Struct struct;

    public InitProducerIdResponseView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public InitProducerIdResponseView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public int throttleTimeMs() {
        return (Integer) struct.get(THROTTLE_TIME_MS);
    }

    public InitProducerIdResponseView throttleTimeMs(int value) {
        struct.set(THROTTLE_TIME_MS, value);
        return this;
    }

    public short errorCode() {
        return (Short) struct.get(ERROR_CODE);
    }

    public InitProducerIdResponseView errorCode(short value) {
        struct.set(ERROR_CODE, value);
        return this;
    }

    public long producerId() {
        return (Long) struct.get(PRODUCER_ID);
    }

    public InitProducerIdResponseView producerId(long value) {
        struct.set(PRODUCER_ID, value);
        return this;
    }

    public short producerEpoch() {
        return (Short) struct.get(PRODUCER_EPOCH);
    }

    public InitProducerIdResponseView producerEpoch(short value) {
        struct.set(PRODUCER_EPOCH, value);
        return this;
    }

    public long ongoingTxnProducerId() {
        return (Long) struct.get(ONGOING_TXN_PRODUCER_ID);
    }

    public InitProducerIdResponseView ongoingTxnProducerId(long value) {
        struct.set(ONGOING_TXN_PRODUCER_ID, value);
        return this;
    }

    public short ongoingTxnProducerEpoch() {
        return (Short) struct.get(ONGOING_TXN_PRODUCER_EPOCH);
    }

    public InitProducerIdResponseView ongoingTxnProducerEpoch(short value) {
        struct.set(ONGOING_TXN_PRODUCER_EPOCH, value);
        return this;
    }
}
