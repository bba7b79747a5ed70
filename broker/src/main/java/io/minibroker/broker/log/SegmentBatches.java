package io.minibroker.broker.log;

import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.RecordBatch;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Walks the batches of a segment's log file in order, for whoever reads a segment whole rather than at an offset:
 * the cleaner (each batch, or only its header) and the replay of a log's producers and transactions. Each walk stops
 * at {@code limit} bytes, the part of the file the caller reads up to (appends may run on past it).
 */
final class SegmentBatches {
    private final FileChannel channel;
    private final Path logPath;

    SegmentBatches(FileChannel channel, Path logPath) {
        this.channel = channel;
        this.logPath = logPath;
    }

    /** What {@link #forEachBatch} hands each batch to; the batch's bytes are valid only during the call. */
    interface BatchVisitor {
        void visit(RecordBatch batch) throws IOException;
    }

    /**
     * Reads the batches of the first {@code limit} bytes in order, each whole and its CRC checked, for the
     * cleaner. One heap buffer is reused, grown to the largest batch.
     *
     * @throws IOException if the batches do not run whole and sound to {@code limit}: a cleaner must never take
     *     a damaged segment for a shorter one
     */
    void forEachBatch(int limit, BatchVisitor visitor) throws IOException {
        BatchHeader header = new BatchHeader();
        ByteBuf bytes = Unpooled.buffer(RecordBatch.HEADER_BYTES);
        try {
            long position = 0;
            while (header.readAt(channel, position, limit)) {
                bytes.clear().ensureWritable(header.sizeInBytes());
                if (!readFully(bytes, position, header.sizeInBytes()) || !RecordBatch.wrap(bytes).isValid()) {
                    break;
                }
                visitor.visit(RecordBatch.wrap(bytes));
                position = header.end();
            }
            if (position != limit) {
                throw new IOException(logPath + " has no sound batch at position " + position + " of " + limit);
            }
        } finally {
            bytes.release();
        }
    }

    /** What {@link #forEachBatchHeader} hands each batch's header to. */
    interface HeaderVisitor {
        void visit(long producerId, long lastOffset, long maxTimestamp);
    }

    /** The headers of the batches of the first {@code limit} bytes, in order, without reading the batches. */
    void forEachBatchHeader(int limit, HeaderVisitor visitor) throws IOException {
        BatchHeader header = new BatchHeader();
        long position = 0;
        while (header.readAt(channel, position, limit)) {
            visitor.visit(header.producerId(), header.lastOffset(), header.maxTimestamp());
            position = header.end();
        }
    }

    /** What {@link #forEachProducerBatch} hands on: a producer's data batch (its header), or a marker. */
    interface ProducerBatchVisitor {
        void batch(BatchHeader header);

        void marker(BatchHeader header, EndTransactionMarker marker, long timestamp) throws IOException;
    }

    /**
     * The producers' batches of the first {@code limit} bytes that end at or past {@code fromOffset}, in order, for a
     * replay of the log's producer state and transactions: a data batch by its header alone, a control batch read
     * whole for its marker (one the broker cannot read, an unknown control type, is passed over as Kafka passes it
     * over).
     */
    void forEachProducerBatch(int limit, long fromOffset, ProducerBatchVisitor visitor) throws IOException {
        BatchHeader header = new BatchHeader();
        ByteBuf bytes = Unpooled.buffer(RecordBatch.HEADER_BYTES);
        try {
            long position = 0;
            while (header.readAt(channel, position, limit)) {
                if (header.producerId() >= 0 && header.lastOffset() >= fromOffset) {
                    if (!header.isControl()) {
                        visitor.batch(header);
                    } else if (header.isTransactional()) {
                        bytes.clear().ensureWritable(header.sizeInBytes());
                        if (readFully(bytes, position, header.sizeInBytes())) {
                            RecordBatch batch = RecordBatch.wrap(bytes);
                            EndTransactionMarker marker = EndTransactionMarker.read(batch,
                                    UnpooledByteBufAllocator.DEFAULT);
                            if (marker != null) {
                                visitor.marker(header, marker, batch.maxTimestamp());
                            }
                        }
                    }
                }
                position = header.end();
            }
        } finally {
            bytes.release();
        }
    }

    /** Reads {@code length} bytes at {@code position} into {@code into}; false if the file ends first. */
    boolean readFully(ByteBuf into, long position, int length) throws IOException {
        int start = into.writerIndex();
        int end = start + length;
        while (into.writerIndex() < end) {
            if (into.writeBytes(channel, position + into.writerIndex() - start, end - into.writerIndex()) < 0) {
                return false;
            }
        }
        return true;
    }
}
