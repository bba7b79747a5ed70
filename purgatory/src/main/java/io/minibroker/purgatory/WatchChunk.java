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

    /** The operation in slot {@code index}, or null if the slot is unwritten or cleared. */
    DelayedOperation get(int index) {
        return (DelayedOperation) SLOTS.getVolatile(slots, index);
    }

    /**
     * Writes the next free slot; the caller holds the list's lock and has checked that the chunk is not full.
     *
     * <p>A release store, and no fence of its own. A watcher writes its slot and then reads the event state (its
     * second try); a checker's caller writes the event state and then reads the slots (volatile); one of the two
     * must see the other's write, which takes a full fence between the watcher's write and its read. That fence
     * is {@link DelayedOperation#publishPlaces}'s volatile write, which {@link Purgatory#tryCompleteElseWatch} makes
     * after its last slot and before the second try (a volatile write orders every earlier write before every
     * later volatile read), so one fence serves all the keys of a request. Volatile stores here cost a fence per
     * key. (On 2026-11-23 release stores plus an <em>extra</em> full fence per watch measured slower at
     * saturation than the volatile stores; this version adds no fence at all: 2026-11-27 in docs/performance.md.)
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
     * Empties slot {@code index} for the operation it was handed to, once that operation has completed: a plain
     * store, not a compare-and-set, since a slot is never reused and so holds that operation or nothing. Nobody
     * reads anything into the null but "skip": a checker that still sees the operation finds it completed.
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

    /** How many slots hold an operation that has not completed; reads every such operation's state. */
    int countLive() {
        int live = 0;
        for (int i = 0, n = slots.length; i < n; i++) {
            DelayedOperation op = get(i);
            if (op != null && !op.isCompleted()) {
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
