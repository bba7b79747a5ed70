package io.minibroker.broker.share;

/**
 * What a consumer says of a delivered record, with the ids of Kafka's AcknowledgeType: GAP (an offset with no record,
 * such as a control record), ACCEPT, RELEASE (deliver again), REJECT (never deliver again) and RENEW (KIP-1222: keep
 * the acquisition lock for another lock duration).
 */
public enum AcknowledgeType {
    GAP(0),
    ACCEPT(1),
    RELEASE(2),
    REJECT(3),
    RENEW(4);

    private final byte id;

    AcknowledgeType(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** The type for a wire id, or null for an id Kafka does not define (INVALID_REQUEST). */
    static AcknowledgeType forId(byte id) {
        for (AcknowledgeType type : values()) {
            if (type.id == id) {
                return type;
            }
        }
        return null;
    }
}
