package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Builds producer batches with protocol's builder and reads a log back as (offset, value) pairs. */
final class TestBatches {
    static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    private TestBatches() {
    }

    /** A producer batch (base offset 0) of records valued {@code prefix-0, prefix-1, ...}, all at {@code timestamp}. */
    static ByteBuf batch(String prefix, int records, long timestamp) {
        return batch(prefix, records, timestamp, CompressionType.NONE);
    }

    static ByteBuf batch(String prefix, int records, long timestamp, CompressionType compression) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ALLOC, compression, 0, timestamp);
        for (int i = 0; i < records; i++) {
            builder.append(timestamp, null, (prefix + "-" + i).getBytes(StandardCharsets.UTF_8), List.of());
        }
        return builder.build();
    }

    /** Appends a batch and releases it, as the produce path would once the append returned. */
    static AppendResult append(PartitionLog log, String prefix, int records, long timestamp) {
        ByteBuf batch = batch(prefix, records, timestamp);
        try {
            return log.append(batch, 0);
        } finally {
            batch.release();
        }
    }

    /**
     * Appends straight to a segment a batch of {@code records} at offsets from {@code baseOffset}, valued
     * {@code v<baseOffset>-0, ...}, all at {@code timestamp}.
     */
    static void append(LogSegment segment, long baseOffset, int records, long timestamp) {
        ByteBuf bytes = batch("v" + baseOffset, records, timestamp);
        try {
            RecordBatch batch = RecordBatch.wrap(bytes);
            batch.setBaseOffset(baseOffset);
            segment.append(batch);
        } finally {
            bytes.release();
        }
    }

    record Entry(long offset, long timestamp, String value) {
    }

    /**
     * Every record from the log start to the end, fetching batch by batch as a consumer would. A read may find nothing
     * only from the last batch's end on, which a truncation may leave before the log end; anywhere else it fails.
     */
    static List<Entry> readAll(PartitionLog log) {
        List<Entry> entries = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            LogReadResult result = log.read(offset, 1, true, Long.MAX_VALUE);
            if (result.isEmpty()) {
                if (offset < log.lastBatchEndOffset()) {
                    throw new AssertionError("nothing read at offset " + offset + ", before the last batch's end "
                            + log.lastBatchEndOffset() + " in " + log.topicPartition());
                }
                break;
            }
            List<Entry> read = decode(result);
            for (Entry entry : read) {
                if (entry.offset() >= offset) {
                    entries.add(entry);
                }
            }
            offset = read.get(read.size() - 1).offset() + 1;
        }
        return entries;
    }

    /** The records of the complete batches of a read; every batch must pass its CRC. */
    static List<Entry> decode(LogReadResult result) {
        List<Entry> entries = new ArrayList<>();
        if (result.isEmpty()) {
            return entries;
        }
        ByteBuf bytes = result.readInto(ALLOC);
        try {
            RecordBatches batches = RecordBatches.of(bytes);
            while (batches.hasNext()) {
                RecordBatch batch = batches.next();
                batch.ensureValid();
                try (RecordIterator records = batch.records(ALLOC)) {
                    while (records.hasNext()) {
                        Record record = records.next();
                        entries.add(new Entry(record.offset(), record.timestamp(),
                                record.value().toString(StandardCharsets.UTF_8)));
                    }
                }
            }
        } finally {
            bytes.release();
        }
        return entries;
    }

    /** The base offsets of the complete batches of a read. */
    static List<Long> baseOffsets(LogReadResult result) {
        List<Long> offsets = new ArrayList<>();
        if (result.isEmpty()) {
            return offsets;
        }
        ByteBuf bytes = result.readInto(ALLOC);
        try {
            RecordBatches batches = RecordBatches.of(bytes);
            while (batches.hasNext()) {
                offsets.add(batches.next().baseOffset());
            }
        } finally {
            bytes.release();
        }
        return offsets;
    }
}
