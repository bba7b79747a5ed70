package io.minibroker.purgatory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The operations watched on one key, in watch order: a doubly linked list of {@link WatchNode}s. Appends and
 * unlinks happen under the list's monitor; checkers walk it without any lock, forward through the volatile
 * {@code next} links. An unlinked node keeps its {@code next}, so a walker standing on it still reaches the
 * rest of the list; it may miss nodes appended after it started, which is why a watcher tries its operation
 * once more after watching.
 *
 * <p>A completed operation unlinks its own nodes, so the list only ever holds operations that are still
 * waiting. An empty list stays in its shard until a check of its key or a purge detaches it; a watcher that
 * still holds a detached list sees {@link #add} fail and fetches a fresh one, so no watch is lost.
 */
final class WatcherList {

    private final Object key;
    private final ConcurrentMap<Object, WatcherList> shard;
    private final LongAdder watched;

    private volatile WatchNode head;
    private WatchNode tail;
    private int size;
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
        node.prev = tail;
        node.next = null;
        if (tail == null) {
            head = node;
        } else {
            tail.next = node;
        }
        tail = node;
        node.list = this;
        node.linked = true;
        size++;
        watched.increment();
        return true;
    }

    /** Unlinks the node if it is still here; O(1). */
    synchronized void unlink(WatchNode node) {
        if (!node.linked) {
            return;
        }
        node.linked = false;
        if (node.prev == null) {
            head = node.next;
        } else {
            node.prev.next = node.next;
        }
        if (node.next == null) {
            tail = node.prev;
        } else {
            node.next.prev = node.prev;
        }
        node.prev = null; // node.next stays: a walker on this node must still find the rest of the list
        size--;
        watched.decrement();
    }

    /** Detaches the list from its shard if it is empty; returns whether it did. */
    synchronized boolean detachIfEmpty() {
        if (size > 0) {
            return false;
        }
        detach();
        return true;
    }

    /** Detaches the list and returns the operations still waiting in it. */
    synchronized List<DelayedOperation> detachAll() {
        List<DelayedOperation> waiting = new ArrayList<>(size);
        for (WatchNode node = head; node != null; node = node.next) {
            node.linked = false;
            node.prev = null;
            DelayedOperation op = node.operation;
            if (op != null && !op.isCompleted()) {
                waiting.add(op);
            }
        }
        watched.add(-size);
        size = 0;
        head = null;
        tail = null;
        detach();
        return waiting;
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
