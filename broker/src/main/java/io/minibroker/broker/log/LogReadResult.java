package io.minibroker.broker.log;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Where the bytes of a read are: a region of one segment file, to be sent as is. A non-empty result holds a
 * reference to the segment's file, so the bytes stay readable even if retention deletes the segment; it is
 * consumed exactly once, by one of {@link #toFileRegion()} (the network sends the bytes with {@code sendfile},
 * without the heap), {@link #readInto} (for code that must look inside), {@link #slice} (for code that sends only
 * part of it) or {@link #release()}. Before that, {@link #batches()} walks its batch headers without reading them.
 * Like Kafka's, the region may end with part of a batch when {@code maxBytes} cuts it; clients skip it.
 */
public final class LogReadResult {

    /** A read of nothing: also what a fetch the leader's replication throttle holds back is answered with. */
    public static final LogReadResult EMPTY = new LogReadResult(null, 0, 0, -1, -1, 0, -1, false, false);

    private final SharedFileChannel file;
    private final long position;
    private final int length;
    // The header of the first batch, whole in the read, as the read's own look-up found it: batches() does not read it
    // again, and a read whose batches are not walked (a fetch's) makes no object of it.
    private final long firstOffset;
    private final long firstLastOffset;
    private final int firstSize;
    private final long firstProducerId;
    private final boolean firstTransactional;
    private final boolean firstControl;
    private final AtomicBoolean consumed = new AtomicBoolean();

    /**
     * @param file     the segment file, a reference to which this result takes over; null when empty
     * @param position the file position of the first batch
     * @param length   bytes from {@code position}; 0 when there is nothing to return
     * @param firstOffset and the rest: the header of the first batch, which is whole in the read ({@link
     *                 FileChannelRecordBatch}'s fields); a base offset of -1 when empty
     */
    LogReadResult(SharedFileChannel file, long position, int length, long firstOffset, long firstLastOffset,
                  int firstSize, long firstProducerId, boolean firstTransactional, boolean firstControl) {
        this.file = file;
        this.position = position;
        this.length = length;
        this.firstOffset = firstOffset;
        this.firstLastOffset = firstLastOffset;
        this.firstSize = firstSize;
        this.firstProducerId = firstProducerId;
        this.firstTransactional = firstTransactional;
        this.firstControl = firstControl;
    }

    public boolean isEmpty() {
        return length == 0;
    }

    public int length() {
        return length;
    }

    public long firstOffset() {
        return firstOffset;
    }

    /** The region as a file region to write to a channel; it takes over this result's hold on the file. */
    public SegmentFileRegion toFileRegion() {
        if (isEmpty()) {
            throw new IllegalStateException("an empty read has no file region");
        }
        consume();
        return new SegmentFileRegion(file, position, length);
    }

    /**
     * The whole batches of the read, in order, each read from the file by its header alone (Kafka's
     * {@code FileRecords.batches()}, header-only): lazily, so a walk that stops early reads no further headers; a
     * batch that {@code maxBytes} cut short is not among them. The first one is the read's look-up's, its header
     * not read again. Walked before the result is consumed.
     */
    public Iterable<FileChannelRecordBatch> batches() {
        if (file == null) {
            return List.of();
        }
        return () -> new Iterator<>() {
            private final BatchHeader header = new BatchHeader();
            private FileChannelRecordBatch found = new FileChannelRecordBatch(0, firstSize, firstOffset,
                    firstLastOffset, firstProducerId, firstTransactional, firstControl);
            private long next = position;

            @Override
            public boolean hasNext() {
                if (consumed.get()) {
                    throw new IllegalStateException("the batches of a consumed read cannot be walked");
                }
                if (found == null) {
                    try {
                        if (header.readAt(file.channel(), next, position + length)) {
                            found = header.inRead(position);
                        } else {
                            next = position + length; // the end of the read, or a batch it cut short: stop there
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return found != null;
            }

            @Override
            public FileChannelRecordBatch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                FileChannelRecordBatch batch = found;
                found = null;
                next = position + batch.end();
                return batch;
            }
        };
    }

    /**
     * The batches of the read from {@code first} to {@code last}, two of its {@link #batches()}, as Kafka's
     * {@code FileRecords.slice}: it takes over this result's hold on the file, so this one is consumed.
     */
    public LogReadResult slice(FileChannelRecordBatch first, FileChannelRecordBatch last) {
        if (first.position() < 0 || last.end() > length || last.end() <= first.position()) {
            throw new IllegalArgumentException("batches " + first + " to " + last + " are not of " + this);
        }
        consume();
        return new LogReadResult(file, position + first.position(), last.end() - first.position(),
                first.baseOffset(), first.lastOffset(), first.sizeInBytes(), first.producerId(),
                first.isTransactional(), first.isControl());
    }

    /** The bytes, copied into a new buffer from {@code alloc} that the caller releases; this result is released. */
    public ByteBuf readInto(ByteBufAllocator alloc) {
        consume();
        ByteBuf out = alloc.buffer(length);
        try {
            file.readInto(out, position, length);
            return out;
        } catch (IOException e) {
            out.release();
            throw new UncheckedIOException(e);
        } finally {
            letGo();
        }
    }

    /** Gives up the bytes without sending or copying them. */
    public void release() {
        consume();
        letGo();
    }

    private void consume() {
        if (file != null && !consumed.compareAndSet(false, true)) {
            throw new IllegalStateException("a read result is sent, copied or released once");
        }
    }

    private void letGo() {
        if (file == null) {
            return;
        }
        try {
            file.release();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close the file of a deleted segment", e);
        }
    }

    @Override
    public String toString() {
        return "LogReadResult(" + length + " bytes at " + position + ", first offset " + firstOffset + ")";
    }
}
