package io.minibroker.purgatory;

/**
 * One operation's place in one key's {@link WatcherList}. An operation watched on three keys has three nodes,
 * chained to each other through {@code nextOfOperation} so that completing the operation can empty all three
 * in O(keys). An emptied node ("husk") holds no reference to the operation, which therefore becomes collectable
 * the moment it completes; the husk itself is unlinked by the next check or purge of its key.
 */
final class WatchNode {

    volatile DelayedOperation operation;
    /** The next node of the same key; only written under the list's monitor, read without it. */
    volatile WatchNode next;
    /** The next node of the same operation; written once, before the node is published to the operation. */
    WatchNode nextOfOperation;

    WatchNode(DelayedOperation operation) {
        this.operation = operation;
    }

    /** True if the operation is gone or done, so the node only takes space. */
    boolean isHusk() {
        DelayedOperation op = operation;
        return op == null || op.isCompleted();
    }
}
