package io.minibroker.purgatory;

import io.minibroker.purgatory.timer.TimerTask;

import java.util.Arrays;

/**
 * An operation's places in the {@link WatcherList}s of its keys: the chunk and the slot index of each. Completing
 * the operation empties every place in O(keys) without a lock, so a completed operation is never left in a list
 * for a purge or a check to find.
 *
 * <p>Why fields of the operation rather than an object of their own: the places live exactly as long as their
 * operation, and every object that lives while an operation waits is one more for each young collection to copy.
 * The first four places are fields here (an operation watched on three keys, the seed benchmark's case, is one
 * object, where it was two: itself and a 40-byte group of places); further ones go to arrays.
 *
 * <p>Written only by the watching thread, before {@link DelayedOperation} publishes them with a volatile write;
 * read by whichever thread then empties them. An operation is watched once.
 */
abstract class WatchPlaces extends TimerTask {

    private static final int INLINE = 4;

    private WatchChunk chunk0;
    private WatchChunk chunk1;
    private WatchChunk chunk2;
    private WatchChunk chunk3;
    // Bytes suffice: a chunk holds at most WatcherList.MAX_CHUNK_CAPACITY (64) slots.
    private byte index0;
    private byte index1;
    private byte index2;
    private byte index3;
    /** Places beyond the first four, for an operation watched on more keys; null until needed. */
    private WatchChunk[] moreChunks;
    private byte[] moreIndexes;
    private int places;

    WatchPlaces(long delayMs) {
        super(delayMs);
    }

    /** How many places were recorded. */
    final int places() {
        return places;
    }

    /** Records that slot {@code index} of {@code chunk} holds this operation; by the watching thread only. */
    final void record(WatchChunk chunk, int index) {
        byte i = (byte) index;
        switch (places) {
            case 0 -> { chunk0 = chunk; index0 = i; }
            case 1 -> { chunk1 = chunk; index1 = i; }
            case 2 -> { chunk2 = chunk; index2 = i; }
            case 3 -> { chunk3 = chunk; index3 = i; }
            default -> recordMore(chunk, i);
        }
        places++;
    }

    /**
     * Empties every place and forgets the chunks, so that a completed operation its caller still holds does not
     * pin them (nor, through their links, the chunks after them). Two threads may run this at once, a completion
     * racing the watcher's publication: each reads a field once, emptying a slot twice is harmless, and a chunk
     * the other thread has already forgotten is skipped, that thread having emptied its slot.
     */
    final void releasePlaces() {
        chunk0 = release(chunk0, index0);
        chunk1 = release(chunk1, index1);
        chunk2 = release(chunk2, index2);
        chunk3 = release(chunk3, index3);
        WatchChunk[] chunks = moreChunks;
        byte[] indexes = moreIndexes;
        if (chunks != null && indexes != null) {
            moreChunks = null;
            moreIndexes = null;
            for (int k = 0, n = Math.min(chunks.length, indexes.length); k < n; k++) {
                release(chunks[k], indexes[k]);
            }
        }
    }

    private void recordMore(WatchChunk chunk, byte index) {
        int at = places - INLINE;
        if (moreChunks == null) {
            moreChunks = new WatchChunk[INLINE];
            moreIndexes = new byte[INLINE];
        } else if (at == moreChunks.length) {
            moreChunks = Arrays.copyOf(moreChunks, at * 2);
            moreIndexes = Arrays.copyOf(moreIndexes, at * 2);
        }
        moreChunks[at] = chunk;
        moreIndexes[at] = index;
    }

    /** Empties the slot if the place was recorded; returns null, for the caller to forget the chunk. */
    private static WatchChunk release(WatchChunk chunk, byte index) {
        if (chunk != null) {
            chunk.release(index);
        }
        return null;
    }
}
