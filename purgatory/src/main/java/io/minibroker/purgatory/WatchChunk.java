package io.minibroker.purgatory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A run of slots in one key's {@link WatcherList}, filled in order by watchers and emptied in any order by
 * completions. A slot is written once (under the list's lock) and cleared once; it is never reused, so the place
 * an operation's {@link WatchPlaces} record stays valid for as long as the operation lives, and clearing it needs
 * no lock.
 *
 * <p>Why slots rather than a linked list of nodes: a completing operation clears one array element per key, one
 * cache line, where unlinking a node writes both neighbours and the list's head or tail under the list's lock,
 * lines that the watching threads write too. Checkers scan the slots in order, which the hardware prefetches.
 */
final class WatchChunk {

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(DelayedOperation[].class);

    private final DelayedOperation[] slots;
    /** The next chunk of the list; written under the list's lock, read by checkers without it. */
    volatile WatchChunk next;
    /** Slots handed out so far; guarded by the list's lock. */
    int used;

    WatchChunk(int capacity) {
        this.slots = new DelayedOperation[capacity];
    }

    int capacity() {
        return slots.length;
    }

    boolean isFull() {
        return used == slots.length;
    }

    /**
     * The operation in slot {@code index}, or null if the slot is unwritten or cleared. An acquire load: it pairs
     * with {@link #append}'s release store, so the caller sees the operation as its watcher built it before
     * watching it (what {@link DelayedOperation#tryComplete} reads).
     */
    DelayedOperation get(int index) {
        return (DelayedOperation) SLOTS.getAcquire(slots, index);
    }

    /**
     * Writes the next free slot; the caller holds the list's lock and has checked that the chunk is not full.
     *
     * <p>A release store, and no fence of its own. A watcher writes its slot and then reads the event state (its
     * second try); a checker's caller writes the event state and then reads the slots; one of the two must see the
     * other's write (Dekker's pattern), which takes store-then-load ordering on both sides, and neither a release
     * store nor any later store gives it. The watcher's is the full fence in {@link DelayedOperation#publishPlaces},
     * which {@link Purgatory#tryCompleteElseWatch} reaches after its last slot and before the second try, so one
     * fence serves all the keys of a request; the checker's is described at {@link Purgatory#checkAndComplete}.
     * Volatile stores here would cost a fence per key. (On 2026-11-23 release stores plus an <em>extra</em> full
     * fence per watch measured slower at saturation than volatile stores; 2026-11-27 in docs/performance.md has
     * the release stores with the publication's single fence.)
     */
    int append(DelayedOperation operation) {
        int index = used++;
        SLOTS.setRelease(slots, index, operation);
        return index;
    }

    /**
     * Clears slot {@code index} if it still holds {@code operation}; true for the one caller that cleared it. For
     * {@link WatcherList#detachAll}, which hands each operation it takes back exactly once.
     */
    boolean clear(int index, DelayedOperation operation) {
        return SLOTS.compareAndSet(slots, index, operation, null);
    }

    /**
     * Empties slot {@code index} for the operation it was handed to, once that operation has completed: an opaque
     * store (a plain one may be delayed or dropped by the compiler; no ordering is needed), not a compare-and-set,
     * since a slot is never reused and so holds that operation or nothing. Nobody reads anything into the null but
     * "skip": a checker that still sees the operation finds it completed.
     */
    void release(int index) {
        SLOTS.setOpaque(slots, index, null);
    }

    /** How many slots hold an operation; read without the list's lock (unwritten slots read null). */
    int countHeld() {
        int held = 0;
        for (int i = 0, n = slots.length; i < n; i++) {
            if (get(i) != null) {
                held++;
            }
        }
        return held;
    }

    /**
     * How many slots hold an operation that has not completed; reads every such operation's state. Opaque loads,
     * slot and state alike: this pass only brings the operations' cache lines in and skips chunks with nothing
     * live, and its loads, independent of one another, are meant to be in flight together, which an acquire or
     * volatile load forbids (on AArch64 no later load passes one). Opaque is enough: each load still reads the
     * slot afresh and in order after the checker's event write (see {@link Purgatory#checkAndComplete}), so an
     * operation watched before the event is counted; an operation's state only goes from not completed to
     * completed, so a stale read costs a try and no more; and the second pass reads the slot again with
     * {@link #get} before trying what it holds.
     */
    int countLive() {
        int live = 0;
        for (int i = 0, n = slots.length; i < n; i++) {
            DelayedOperation op = (DelayedOperation) SLOTS.getOpaque(slots, i);
            if (op != null && !op.isCompletedOpaque()) {
                live++;
            }
        }
        return live;
    }

    /** Whether no slot handed out so far still holds an operation. */
    boolean isEmpty() {
        for (int i = 0; i < used; i++) {
            if (get(i) != null) {
                return false;
            }
        }
        return true;
    }
}
