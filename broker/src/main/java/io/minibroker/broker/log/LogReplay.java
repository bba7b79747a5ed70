package io.minibroker.broker.log;

import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.util.function.Consumer;

/**
 * Reads a partition from its log start to its current end, batch by batch, for the coordinators that rebuild their
 * state from an internal topic when they become its leader (the share coordinator, the transaction state topic and the
 * offsets topic).
 */
public final class LogReplay {

    /** How much one read of the replay takes from the log: bounds the buffer, not the replay. */
    private static final int READ_BYTES = 1 << 20;

    /** What a replay hands each record to, with the batch that holds it. */
    @FunctionalInterface
    public interface RecordVisitor {
        void record(RecordBatch batch, Record record);
    }

    private LogReplay() {
    }

    /** Visits every record of {@code log} below the log end offset it has when the replay starts. */
    public static void replay(PartitionLog log, RecordVisitor visitor) {
        replayBatches(log, log.logStartOffset(), batch -> {
            try (RecordIterator records = batch.records(ByteBufAllocator.DEFAULT)) {
                while (records.hasNext()) {
                    visitor.record(batch, records.next());
                }
            }
        });
    }

    /**
     * Hands {@code visitor} each batch of {@code log} from the one holding {@code from} to the log end offset it has
     * when the replay starts, without reading their records (a batch is valid only during its call).
     */
    public static void replayBatches(PartitionLog log, long from, Consumer<RecordBatch> visitor) {
        long offset = from;
        long end = log.logEndOffset();
        while (offset < end) {
            LogReadResult read = log.read(offset, READ_BYTES, true, end);
            if (read.isEmpty()) {
                return;
            }
            ByteBuf buffer = read.readInto(ByteBufAllocator.DEFAULT);
            try {
                RecordBatches batches = RecordBatches.of(buffer);
                while (batches.hasNext()) {
                    RecordBatch batch = batches.next();
                    visitor.accept(batch);
                    offset = batch.lastOffset() + 1;
                }
            } finally {
                buffer.release();
            }
        }
    }
}
