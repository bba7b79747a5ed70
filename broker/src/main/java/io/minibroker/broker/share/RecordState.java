package io.minibroker.broker.share;

/**
 * The delivery state of one offset of a share partition, with Kafka's ids (RecordState in KIP-932), which are also
 * what the persisted state batches carry.
 */
public enum RecordState {
    AVAILABLE(0),
    ACQUIRED(1),
    ACKNOWLEDGED(2),
    ARCHIVED(4);

    private final byte id;

    RecordState(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }

    /** A state that never changes again: the start offset may move past it. */
    boolean isTerminal() {
        return this == ACKNOWLEDGED || this == ARCHIVED;
    }

    public static RecordState forId(int id) {
        for (RecordState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("no record state " + id);
    }
}
