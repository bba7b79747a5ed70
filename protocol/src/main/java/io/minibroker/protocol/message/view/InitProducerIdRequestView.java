package io.minibroker.protocol.message.view;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;

/** Typed view of InitProducerId request bodies of every version; fields a version lacks read as their defaults. */
public final class InitProducerIdRequestView {
    static final StructSchema SCHEMA = ApiKey.INIT_PRODUCER_ID.request().body();
    private static final int TRANSACTIONAL_ID = SCHEMA.indexOf("TransactionalId");
    private static final int TRANSACTION_TIMEOUT_MS = SCHEMA.indexOf("TransactionTimeoutMs");
    private static final int PRODUCER_ID = SCHEMA.indexOf("ProducerId");
    private static final int PRODUCER_EPOCH = SCHEMA.indexOf("ProducerEpoch");
    private static final int ENABLE2_PC = SCHEMA.indexOf("Enable2Pc");
    private static final int KEEP_PREPARED_TXN = SCHEMA.indexOf("KeepPreparedTxn");

    private final Struct struct;

    public InitProducerIdRequestView(Struct struct) {
        this.struct = Views.check(struct, SCHEMA);
    }

    public InitProducerIdRequestView() {
        this(SCHEMA.newStruct());
    }

    public Struct struct() {
        return struct;
    }

    public String transactionalId() {
        return (String) struct.get(TRANSACTIONAL_ID);
    }

    public InitProducerIdRequestView transactionalId(String value) {
        struct.set(TRANSACTIONAL_ID, value);
        return this;
    }

    public int transactionTimeoutMs() {
        return (Integer) struct.get(TRANSACTION_TIMEOUT_MS);
    }

    public InitProducerIdRequestView transactionTimeoutMs(int value) {
        struct.set(TRANSACTION_TIMEOUT_MS, value);
        return this;
    }

    public long producerId() {
        return (Long) struct.get(PRODUCER_ID);
    }

    public InitProducerIdRequestView producerId(long value) {
        struct.set(PRODUCER_ID, value);
        return this;
    }

    public short producerEpoch() {
        return (Short) struct.get(PRODUCER_EPOCH);
    }

    public InitProducerIdRequestView producerEpoch(short value) {
        struct.set(PRODUCER_EPOCH, value);
        return this;
    }

    public boolean enable2Pc() {
        return (Boolean) struct.get(ENABLE2_PC);
    }

    public InitProducerIdRequestView enable2Pc(boolean value) {
        struct.set(ENABLE2_PC, value);
        return this;
    }

    public boolean keepPreparedTxn() {
        return (Boolean) struct.get(KEEP_PREPARED_TXN);
    }

    public InitProducerIdRequestView keepPreparedTxn(boolean value) {
        struct.set(KEEP_PREPARED_TXN, value);
        return this;
    }
}
