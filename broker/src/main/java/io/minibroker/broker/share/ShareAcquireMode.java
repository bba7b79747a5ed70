package io.minibroker.broker.share;

/**
 * How a ShareFetch counts its {@code MaxRecords} (KIP-1206, ShareFetch v2's ShareAcquireMode, with Kafka's ids):
 * BATCH_OPTIMIZED (0, the default and all a v1 request can ask) acquires whole log batches, so the limit is checked
 * only between batches and may be passed by the rest of the last one; RECORD_LIMIT (1) stops at exactly that many.
 */
public enum ShareAcquireMode {
    BATCH_OPTIMIZED(0),
    RECORD_LIMIT(1);

    private static final ShareAcquireMode[] MODES = values(); // values() copies the array at each call

    private final byte id;

    ShareAcquireMode(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** The mode for a wire id, or null for an id Kafka does not define. */
    static ShareAcquireMode forId(byte id) {
        for (ShareAcquireMode mode : MODES) {
            if (mode.id == id) {
                return mode;
            }
        }
        return null;
    }
}
