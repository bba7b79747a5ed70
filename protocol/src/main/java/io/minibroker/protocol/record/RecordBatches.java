package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * The batches of a records field (a produce request partition, a fetch response partition), in order.
 * A fetch response may end with a batch cut short by the size limit; iteration stops before such a tail,
 * and {@link #trailingBytes()} tells how much of one was left. Every complete batch must be magic 2:
 * older message formats fail with INVALID_RECORD, as Kafka 4 refuses them.
 */
public final class RecordBatches implements Iterator<RecordBatch> {
    /** The size field of the smallest message any format allows (a magic 0 message with no key or value). */
    private static final int SMALLEST_MESSAGE_BYTES = 14;

    private final ByteBuf records;
    private int position;

    private RecordBatches(ByteBuf records) {
        this.records = records;
        this.position = records.readerIndex();
    }

    /** Iterates over {@code records}' readable bytes without consuming them. */
    public static RecordBatches of(ByteBuf records) {
        return new RecordBatches(records);
    }

    /**
     * Whether a complete batch follows. Like Kafka, a size below the smallest possible message or an
     * impossible magic is corruption even in an incomplete tail, while a plausible but incomplete tail
     * just ends the iteration.
     */
    @Override
    public boolean hasNext() {
        int left = records.writerIndex() - position;
        if (left < RecordBatch.LOG_OVERHEAD) {
            return false;
        }
        int length = records.getInt(position + RecordBatch.BATCH_LENGTH);
        if (length < SMALLEST_MESSAGE_BYTES) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE,
                    "record size " + length + " is below the minimum of " + SMALLEST_MESSAGE_BYTES);
        }
        if (left <= RecordBatch.MAGIC_OFFSET) {
            return false;
        }
        byte magic = records.getByte(position + RecordBatch.MAGIC_OFFSET);
        if (magic < 0 || magic > RecordBatch.MAGIC) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "invalid magic " + magic);
        }
        return length <= left - RecordBatch.LOG_OVERHEAD;
    }

    @Override
    public RecordBatch next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        int length = records.getInt(position + RecordBatch.BATCH_LENGTH);
        RecordBatch batch = RecordBatch.wrap(records.slice(position, RecordBatch.LOG_OVERHEAD + length));
        position += batch.sizeInBytes();
        return batch;
    }

    /** Bytes after the last complete batch: a partial batch at the end of a fetch response. */
    public int trailingBytes() {
        return records.writerIndex() - position;
    }
}
