package io.minibroker.benchmarks.ceiling;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The null broker's whole "log" of one partition: only its most recent record batches, up to a byte budget, so
 * that a consumer following the log end can fetch what was just produced, at the cost of one copy of each
 * produced batch and nothing else. Older batches are dropped; the log start offset moves with them. The budget is
 * in bytes, not batches: a consumer a few milliseconds behind a fixed-rate producer of one small record a batch
 * (the e2e-rate case) is many batches behind, and one that falls off the log start loses records. Used on the
 * null broker's single event loop only, so it is not thread-safe.
 */
final class RecentBatches {
    private final int capacityBytes;
    private final ArrayDeque<Batch> ring = new ArrayDeque<>();
    private int keptBytes;
    private long logEnd;

    /** Plain arrays: wrapped into a response without reference counts to keep. */
    private record Batch(long baseOffset, long nextOffset, byte[] bytes) { }

    RecentBatches(int capacityBytes) {
        this.capacityBytes = capacityBytes;
    }

    /**
     * Keeps a copy of each batch in {@code records} (left as it is), its base offset set to the log end, as a
     * broker assigns offsets; returns the first batch's offset.
     */
    long append(ByteBuf records) {
        long first = logEnd;
        try {
            for (RecordBatches batches = RecordBatches.of(records); batches.hasNext(); ) {
                RecordBatch batch = batches.next();
                byte[] copy = new byte[batch.sizeInBytes()];
                batch.slice().getBytes(0, copy);
                RecordBatch kept = RecordBatch.wrap(Unpooled.wrappedBuffer(copy));
                kept.setBaseOffset(logEnd);
                long next = kept.lastOffset() + 1;
                ring.addLast(new Batch(logEnd, next, copy));
                keptBytes += copy.length;
                while (keptBytes > capacityBytes && ring.size() > 1) {
                    keptBytes -= ring.removeFirst().bytes().length;
                }
                logEnd = next;
            }
        } catch (ProtocolException malformed) {
            // the null broker judges nothing: it just stops keeping at a malformed batch
        }
        return first;
    }

    long logStart() {
        return ring.isEmpty() ? logEnd : ring.peekFirst().baseOffset();
    }

    long logEnd() {
        return logEnd;
    }

    /**
     * The kept batches from the one holding {@code offset} on, up to {@code maxBytes} but at least one, as one
     * buffer sharing their bytes (the encoder copies them); empty at the log end. The caller checks that the
     * offset lies between {@link #logStart()} and {@link #logEnd()}. Found from the tail: a consumer follows the
     * log end, a few batches behind, while the ring holds thousands.
     */
    ByteBuf read(long offset, int maxBytes) {
        List<byte[]> newestFirst = new ArrayList<>();
        for (Iterator<Batch> it = ring.descendingIterator(); it.hasNext(); ) {
            Batch batch = it.next();
            if (batch.nextOffset() <= offset) {
                break;
            }
            newestFirst.add(batch.bytes());
        }
        int count = 0;
        int bytes = 0;
        for (int i = newestFirst.size() - 1; i >= 0; i--) {
            int size = newestFirst.get(i).length;
            if (count > 0 && bytes + size > maxBytes) {
                break;
            }
            bytes += size;
            count++;
        }
        byte[][] found = new byte[count][];
        for (int i = 0; i < count; i++) {
            found[i] = newestFirst.get(newestFirst.size() - 1 - i);
        }
        return Unpooled.wrappedBuffer(found);
    }
}
