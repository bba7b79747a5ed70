package io.minibroker.broker.transaction;

/**
 * How a transaction ended: the marker's type, as Kafka's ControlRecordType ABORT (0) and COMMIT (1) are written in a
 * control record's key, and as WriteTxnMarkers' {@code TransactionResult} boolean (true = commit) says it.
 */
public enum TransactionResult {
    ABORT((short) 0),
    COMMIT((short) 1);

    private final short controlType;

    TransactionResult(short controlType) {
        this.controlType = controlType;
    }

    /** The type in a control record's key (version 0, then this type). */
    public short controlType() {
        return controlType;
    }

    public static TransactionResult of(boolean committed) {
        return committed ? COMMIT : ABORT;
    }
}
