package io.minibroker.purgatory;

import io.minibroker.purgatory.lock.SpinLocked;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentMap;

/**
 * The operations watched on one key, in watch order: a singly linked list of {@link WatchChunk}s whose slots
 * hold the operations. Watchers append under the list's {@link SpinLocked lock}; checkers scan it without any
 * lock, forward through the volatile {@code next} links; a completing operation clears its own slot without any
 * lock. A checker may miss operations appended after it started, which is why a watcher tries its operation once
 * more after watching.
 *
 * <p>Cleared slots cost a few bytes and hold no operation, so a completed operation is unreachable from here at
 * once; the chunks themselves are reclaimed in amortized O(1) per append: whenever the list has grown by as many
 * chunks as it kept at the previous sweep, the appender unlinks the full chunks that are empty. A purge drops the
 * empty chunks at the head of a list that was appended to since the previous purge (O(1) when its first chunk
 * still holds an operation), sweeps a list that was not (so chunks emptied after the last append do not stay on
 * every check's path), and detaches a list that is wholly empty. Caveat: a chunk stays while any of its slots holds an operation, so a list
 * whose every chunk keeps one long waiter holds up to 64 slots (4 bytes each) per waiter until they end. A
 * detached list is never appended to again: a watcher that still holds it sees {@link #add} fail and fetches a
 * fresh one, so no watch is lost.
 *
 * <p>Worked example, chunk capacities 4, 8, 16...: twelve operations watched fill chunks of 4 and 8. When the
 * first four complete, the first chunk is all cleared but stays linked until the next sweep or purge; checkers
 * scan its four empty slots meanwhile. An unlinked chunk keeps its {@code next}, so a checker standing on it
 * still reaches the rest of the list.
 */
final class WatcherList extends SpinLocked {

    private static final int FIRST_CHUNK_CAPACITY = 4;
    static final int MAX_CHUNK_CAPACITY = 64; // WatchPlaces keeps indexes in bytes

    private final Object key;
    private final ConcurrentMap<Object, WatcherList> shard;

    private volatile WatchChunk head;
    private WatchChunk tail;
    private int chunks;
    private int chunksAfterSweep;
    private boolean appendedSincePurge;
    private boolean detached;

    WatcherList(Object key, ConcurrentMap<Object, WatcherList> shard) {
        this.key = key;
        this.shard = shard;
    }

    WatchChunk head() {
        return head;
    }

    /**
     * Appends the operation and records its place in it; false if the list was detached and the caller must use a
     * fresh one.
     */
    boolean add(DelayedOperation operation) {
        WatchChunk chunk;
        int index;
        lock();
        try {
            if (detached) {
                return false;
            }
            if (tail == null || tail.isFull()) {
                appendChunk();
            }
            appendedSincePurge = true;
            chunk = tail;
            index = chunk.append(operation);
        } finally {
            unlock();
        }
        operation.record(chunk, index);
        return true;
    }

    /**
     * For a purge: detaches the list if nothing is left in it, returning whether it did. A list appended to since
     * the previous purge only loses the empty chunks at its head (its appends sweep the rest); an idle one is swept
     * whole, so that chunks emptied after its last append do not stay on every check's path. Either way it stops
     * scanning a chunk at its first waiting operation.
     */
    boolean purge() {
        boolean detachedNow;
        lock();
        try {
            if (head != null) {
                if (appendedSincePurge) {
                    dropEmptyHeadChunks();
                } else {
                    sweep();
                }
                appendedSincePurge = false;
            }
            detachedNow = head == null || (head == tail && tail.isEmpty());
            if (detachedNow) {
                detached = true;
            }
        } finally {
            unlock();
        }
        if (detachedNow) {
            removeFromShard(); // outside the lock: the map may block on a bin or help a resize
        }
        return detachedNow;
    }

    /** Slots holding an operation, for {@link Purgatory#watched()}; without the lock, so a recent value. */
    long countWatched() {
        long held = 0;
        for (WatchChunk chunk = head; chunk != null; chunk = chunk.next) {
            held += chunk.countHeld();
        }
        return held;
    }

    /** Detaches the list from its shard if no slot holds an operation. O(slots). */
    void detachIfEmpty() {
        lock();
        try {
            for (WatchChunk chunk = head; chunk != null; chunk = chunk.next) {
                if (!chunk.isEmpty()) {
                    return;
                }
            }
            detached = true;
        } finally {
            unlock();
        }
        removeFromShard();
    }

    /** Detaches the list and returns the operations still waiting in it, their slots here cleared. */
    List<DelayedOperation> detachAll() {
        List<DelayedOperation> waiting = new ArrayList<>();
        lock();
        try {
            for (WatchChunk chunk = head; chunk != null; chunk = chunk.next) {
                for (int i = 0; i < chunk.used; i++) {
                    DelayedOperation op = chunk.get(i);
                    if (op != null && chunk.clear(i, op) && !op.isCompleted()) {
                        waiting.add(op);
                    }
                }
            }
            detached = true;
            // Forget the chunks: the operations handed back still hold slots in them until they end.
            head = null;
            tail = null;
        } finally {
            unlock();
        }
        removeFromShard();
        return waiting;
    }

    /** Drops a detached list from the shard on behalf of a watcher that found it detached. */
    void removeFromShard() {
        shard.remove(key, this);
    }

    private void appendChunk() {
        if (chunks >= 2 * chunksAfterSweep + 2) {
            sweep();
        }
        WatchChunk chunk = new WatchChunk(
                tail == null ? FIRST_CHUNK_CAPACITY : Math.min(MAX_CHUNK_CAPACITY, tail.capacity() * 2));
        if (tail == null) {
            head = chunk;
        } else {
            tail.next = chunk;
        }
        tail = chunk;
        chunks++;
    }

    /** Unlinks every full chunk, except the tail, whose slots are all cleared. */
    private void sweep() {
        WatchChunk previous = null;
        for (WatchChunk chunk = head; chunk != tail; chunk = chunk.next) {
            if (chunk.isEmpty()) {
                // The chunk keeps its next: a checker standing on it must still reach the rest of the list.
                if (previous == null) {
                    head = chunk.next;
                } else {
                    previous.next = chunk.next;
                }
                chunks--;
            } else {
                previous = chunk;
            }
        }
        chunksAfterSweep = chunks;
    }

    private void dropEmptyHeadChunks() {
        while (head != tail && head.isEmpty()) {
            head = head.next;
            chunks--;
        }
        chunksAfterSweep = Math.min(chunksAfterSweep, chunks);
    }
}
