package io.minibroker.purgatory;

/**
 * One operation's places in the {@link WatcherList}s of up to four keys; an operation watched on more keys holds
 * a chain of these, linked through {@code nextOfOperation}. Completing the operation clears every place in
 * O(keys) without a lock, so a completed operation is never left in a list for a purge or a check to find.
 *
 * <p>Why four places to an object rather than one: the slots live exactly as long as their operation, so each
 * object here is one more for every young collection to copy while the operation waits. An operation watched on
 * three keys (the seed benchmark's case) costs one 40-byte object instead of three 24-byte ones.
 *
 * <p>Written only by the watching thread, before it publishes the chain to the operation (a volatile write);
 * read by whichever thread then takes the chain to release it.
 */
final class WatchSlots {

    static final int CAPACITY = 4;

    private WatchChunk chunk0;
    private WatchChunk chunk1;
    private WatchChunk chunk2;
    private WatchChunk chunk3;
    // Bytes suffice: a chunk holds at most WatcherList.MAX_CHUNK_CAPACITY (64) slots.
    private byte index0;
    private byte index1;
    private byte index2;
    private byte index3;
    private int size;
    /** The operation's next group of places, if it is watched on more than {@link #CAPACITY} keys. */
    WatchSlots nextOfOperation;

    boolean isFull() {
        return size == CAPACITY;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** Records that slot {@code index} of {@code chunk} holds the operation; the caller has checked it is not full. */
    void record(WatchChunk chunk, int index) {
        byte i = (byte) index;
        switch (size++) {
            case 0 -> { chunk0 = chunk; index0 = i; }
            case 1 -> { chunk1 = chunk; index1 = i; }
            case 2 -> { chunk2 = chunk; index2 = i; }
            default -> { chunk3 = chunk; index3 = i; }
        }
    }

    /** Empties each place; the operation has completed. */
    void release() {
        if (size > 0) {
            chunk0.release(index0);
        }
        if (size > 1) {
            chunk1.release(index1);
        }
        if (size > 2) {
            chunk2.release(index2);
        }
        if (size > 3) {
            chunk3.release(index3);
        }
    }
}
