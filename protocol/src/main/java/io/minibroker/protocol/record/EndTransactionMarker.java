package io.minibroker.protocol.record;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import java.util.List;

/**
 * The one record of a control batch that ends a transaction (Kafka's EndTransactionMarker): its key is the
 * control record type (version 0, then ABORT 0 or COMMIT 1), its value the coordinator epoch (version 0, then the
 * epoch as an int32). The batch carries the producer's id and epoch, no sequence, and the transactional and control
 * bits.
 *
 * <pre>
 * key   = int16 version (0) | int16 type          (4 bytes)
 * value = int16 version (0) | int32 coordinatorEpoch (6 bytes)
 * </pre>
 */
public record EndTransactionMarker(short controlType, int coordinatorEpoch) {

    public static final short ABORT = 0;
    public static final short COMMIT = 1;
    private static final short CURRENT_VERSION = 0;
    private static final int KEY_BYTES = 4;
    private static final int VALUE_BYTES = 6;

    public boolean isCommit() {
        return controlType == COMMIT;
    }

    /**
     * A control batch holding this marker for the producer, at offset 0 (the log assigns the real one); the caller
     * owns the buffer.
     */
    public ByteBuf toBatch(ByteBufAllocator alloc, long producerId, short producerEpoch, long timestamp) {
        byte[] key = {0, (byte) CURRENT_VERSION, (byte) (controlType >> 8), (byte) controlType};
        byte[] value = {0, (byte) CURRENT_VERSION, (byte) (coordinatorEpoch >>> 24), (byte) (coordinatorEpoch >>> 16),
                (byte) (coordinatorEpoch >>> 8), (byte) coordinatorEpoch};
        return new RecordBatchBuilder(alloc, CompressionType.NONE, 0, timestamp)
                .producer(producerId, producerEpoch, -1)
                .transactional(true)
                .control(true)
                .append(timestamp, key, value, List.of())
                .build();
    }

    /**
     * The marker a control batch holds, read from its first record; null if the batch is not a control batch or its
     * record is not a transaction marker (an unknown control type, as Kafka skips those, or a malformed key).
     */
    public static EndTransactionMarker read(RecordBatch batch, ByteBufAllocator alloc) {
        if (!batch.isControl() || batch.recordCount() < 1) {
            return null;
        }
        try (RecordIterator records = batch.records(alloc)) {
            if (!records.hasNext()) {
                return null;
            }
            Record record = records.next();
            ByteBuf key = record.key();
            if (key == null || key.readableBytes() < KEY_BYTES) {
                return null;
            }
            short type = key.getShort(key.readerIndex() + 2);
            if (type != ABORT && type != COMMIT) {
                return null;
            }
            ByteBuf value = record.value();
            int coordinatorEpoch = value != null && value.readableBytes() >= VALUE_BYTES
                    ? value.getInt(value.readerIndex() + 2) : -1;
            return new EndTransactionMarker(type, coordinatorEpoch);
        } catch (ProtocolException e) { // malformed records under a sound CRC: no marker to act on
            return null;
        }
    }
}
