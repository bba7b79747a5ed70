package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;

/**
 * The shape Kafka requires of one partition's records in a produce request (every version this module
 * supports is 3 or later): exactly one complete batch, of magic 2, and zstd only from version 7, when
 * clients could first know the broker reads it. Bytes after the batch that do not form a complete one
 * are ignored, as Kafka ignores them. The partition leader epoch is not checked: producers may send any.
 */
public final class ProduceRecords {
    private static final short FIRST_ZSTD_VERSION = 7;

    private ProduceRecords() {
    }

    /** Returns the single batch, or fails with the error Kafka would report for the partition. */
    public static RecordBatch validate(short produceVersion, ByteBuf records) {
        RecordBatches batches = RecordBatches.of(records);
        if (!batches.hasNext()) {
            throw new ProtocolException(Errors.INVALID_RECORD,
                    "produce requests with version " + produceVersion + " must have at least one record batch per partition");
        }
        RecordBatch batch = batches.next();
        if (produceVersion < FIRST_ZSTD_VERSION && batch.compression() == CompressionType.ZSTD) {
            throw new ProtocolException(Errors.UNSUPPORTED_COMPRESSION_TYPE,
                    "produce requests with version " + produceVersion + " may not use zstd compression");
        }
        if (batches.hasNext()) {
            throw new ProtocolException(Errors.INVALID_RECORD,
                    "produce requests with version " + produceVersion + " must contain exactly one record batch per partition");
        }
        return batch;
    }
}
