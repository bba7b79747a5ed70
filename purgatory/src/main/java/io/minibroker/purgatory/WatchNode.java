package io.minibroker.purgatory;

/**
 * One operation's place in one key's {@link WatcherList}. An operation watched on three keys has three nodes,
 * chained to each other through {@code nextOfOperation}, so that completing the operation unlinks all three in
 * O(keys): a completed operation is never left in a list for a purge to find.
 */
final class WatchNode {

    /** Null once the operation completed, so that a walker standing on the node skips it without a look. */
    volatile DelayedOperation operation;
    /** The next node of the same key; written under the list's lock, read by walkers without it. */
    volatile WatchNode next;
    /** The previous node of the same key; guarded by the list's lock. */
    WatchNode prev;
    /** Whether the node is in {@link #list}; guarded by that list's lock. */
    boolean linked;
    /** The list the node was appended to; written under its lock before the node is published. */
    WatcherList list;
    /** The next node of the same operation; written once, before the node is published to the operation. */
    WatchNode nextOfOperation;

    WatchNode(DelayedOperation operation) {
        this.operation = operation;
    }

    /** Called once the operation completed: forget it and leave the list. */
    void release() {
        operation = null;
        list.unlink(this);
    }
}
