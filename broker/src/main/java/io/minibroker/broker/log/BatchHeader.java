package io.minibroker.broker.log;

import io.minibroker.protocol.record.RecordBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * The leading fields of a stored batch, read from a segment file without reading the batch. Scans for an
 * offset or a timestamp step from batch to batch by these alone, where {@link RecordBatch} would need each
 * whole batch in memory; only the fields of the v2 layout documented there that a scan needs are read:
 *
 * <pre>
 *  0  base offset (8)   8  batch length (4)   16  magic (1)   21  attributes (2)   23  last offset delta (4)
 * 35  max timestamp (8)   43  producer id (8)   51  producer epoch (2)   53  base sequence (4)
 * </pre>
 * One instance per reader or writer: it reuses its buffer, so a scan allocates nothing per batch.
 */
final class BatchHeader {
    private static final int BASE_OFFSET = 0;
    private static final int BATCH_LENGTH = 8;
    private static final int MAGIC = 16;
    private static final int LAST_OFFSET_DELTA = 23;
    private static final int MAX_TIMESTAMP = 35;
    private static final int ATTRIBUTES = 21;
    private static final int PRODUCER_ID = 43;
    private static final int PRODUCER_EPOCH = 51;
    private static final int BASE_SEQUENCE = 53;
    private static final int TRANSACTIONAL_FLAG = 0x10;
    private static final int CONTROL_FLAG = 0x20;
    static final int BYTES = BASE_SEQUENCE + 4;

    private final ByteBuffer buffer = ByteBuffer.allocate(BYTES);
    private long position = -1;

    /**
     * Reads the header of the batch at {@code position}, which must end by {@code limit}. False when fewer
     * than a header's bytes remain, the length is impossible or the batch runs past {@code limit}: the
     * end of the readable data, or a torn tail that recovery will cut.
     */
    boolean readAt(FileChannel channel, long position, long limit) throws IOException {
        this.position = -1;
        if (limit - position < BYTES) {
            return false;
        }
        buffer.clear();
        while (buffer.hasRemaining()) {
            if (channel.read(buffer, position + buffer.position()) < 0) {
                return false;
            }
        }
        int length = buffer.getInt(BATCH_LENGTH);
        if (length < RecordBatch.HEADER_BYTES - RecordBatch.LOG_OVERHEAD
                || length > limit - position - RecordBatch.LOG_OVERHEAD) {
            return false;
        }
        this.position = position;
        return true;
    }

    long position() {
        return position;
    }

    long baseOffset() {
        return buffer.getLong(BASE_OFFSET);
    }

    int sizeInBytes() {
        return RecordBatch.LOG_OVERHEAD + buffer.getInt(BATCH_LENGTH);
    }

    byte magic() {
        return buffer.get(MAGIC);
    }

    long lastOffset() {
        return baseOffset() + buffer.getInt(LAST_OFFSET_DELTA);
    }

    long maxTimestamp() {
        return buffer.getLong(MAX_TIMESTAMP);
    }

    long producerId() {
        return buffer.getLong(PRODUCER_ID);
    }

    short producerEpoch() {
        return buffer.getShort(PRODUCER_EPOCH);
    }

    int baseSequence() {
        return buffer.getInt(BASE_SEQUENCE);
    }

    int lastOffsetDelta() {
        return buffer.getInt(LAST_OFFSET_DELTA);
    }

    boolean isTransactional() {
        return (buffer.getShort(ATTRIBUTES) & TRANSACTIONAL_FLAG) != 0;
    }

    boolean isControl() {
        return (buffer.getShort(ATTRIBUTES) & CONTROL_FLAG) != 0;
    }

    /** The position right after this batch. */
    long end() {
        return position + sizeInBytes();
    }

    /** This batch as one of a read that starts at file position {@code readStart}. */
    FileChannelRecordBatch inRead(long readStart) {
        return new FileChannelRecordBatch((int) (position - readStart), sizeInBytes(), baseOffset(), lastOffset(),
                producerId(), isTransactional(), isControl());
    }
}
