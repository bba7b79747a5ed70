package io.minibroker.purgatory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The operations watched on one key, in watch order: a singly linked list of {@link WatchNode}s that checkers
 * walk without a lock while watchers append and sweepers unlink under the list's monitor. An unlinked node keeps
 * its {@code next}, so a walker standing on it still reaches the rest of the list.
 *
 * <p>Once a sweep leaves the list empty, the list detaches itself from its shard; a watcher that still holds it
 * sees {@link #add} fail and fetches a fresh list, so no watch is lost to the removal. The list keeps the
 * purgatory's watched count exact as nodes come and go.
 */
final class WatcherList {

    private final Object key;
    private final ConcurrentMap<Object, WatcherList> shard;
    private final LongAdder watched;

    private volatile WatchNode head;
    private WatchNode tail;
    private boolean detached;

    WatcherList(Object key, ConcurrentMap<Object, WatcherList> shard, LongAdder watched) {
        this.key = key;
        this.shard = shard;
        this.watched = watched;
    }

    WatchNode head() {
        return head;
    }

    /** Appends the node; false if the list was detached and the caller must use a fresh one. */
    synchronized boolean add(WatchNode node) {
        if (detached) {
            return false;
        }
        if (tail == null) {
            head = node;
        } else {
            tail.next = node;
        }
        tail = node;
        watched.increment();
        return true;
    }

    /** Unlinks every husk, detaches the list if that empties it, and returns how many nodes it unlinked. */
    synchronized int sweep() {
        int unlinked = 0;
        WatchNode previous = null;
        for (WatchNode node = head; node != null; node = node.next) {
            if (node.isHusk()) {
                unlinked++;
                if (previous == null) {
                    head = node.next;
                } else {
                    previous.next = node.next;
                }
            } else {
                previous = node;
            }
        }
        tail = previous;
        watched.add(-unlinked);
        if (head == null) {
            detach();
        }
        return unlinked;
    }

    /** Detaches the list and returns the operations still pending in it. */
    synchronized List<DelayedOperation> detachAll() {
        List<DelayedOperation> pending = new ArrayList<>();
        int nodes = 0;
        for (WatchNode node = head; node != null; node = node.next) {
            nodes++;
            DelayedOperation op = node.operation;
            if (op != null && !op.isCompleted()) {
                pending.add(op);
            }
        }
        head = null;
        tail = null;
        watched.add(-nodes);
        detach();
        return pending;
    }

    /** Drops a detached list from the shard on behalf of a watcher that found it detached. */
    void removeFromShard() {
        shard.remove(key, this);
    }

    private void detach() {
        detached = true;
        removeFromShard();
    }
}
