package io.minibroker.purgatory;

/**
 * One operation's place in one key's {@link WatcherList}. An operation watched on three keys holds three slots,
 * chained through {@code nextOfOperation}, so that completing it clears all three in O(keys) without a lock: a
 * completed operation is never left in a list for a purge or a check to find.
 */
final class WatchSlot {

    private final WatchChunk chunk;
    private final int index;
    /** The next slot of the same operation; written once, before the slot is published to the operation. */
    WatchSlot nextOfOperation;

    WatchSlot(WatchChunk chunk, int index) {
        this.chunk = chunk;
        this.index = index;
    }

    /** Empties the slot if it still holds {@code operation}; true for the one caller that emptied it. */
    boolean release(DelayedOperation operation) {
        return chunk.clear(index, operation);
    }
}
