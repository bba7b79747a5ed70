package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * The leader's step that stores a producer's batches in the topic's {@code compression.type}, as Kafka's log
 * validator does: a batch in another codec is decompressed and compressed again (records, offsets, timestamps,
 * producer id and sequence kept); with {@code producer}, or when every batch already has the codec, nothing is
 * copied at all. Followers store the leader's bytes as they are.
 */
final class BatchRecompression {

    private BatchRecompression() {
    }

    /**
     * The batches of {@code records} in the codec {@code type} asks for, in a new buffer the caller releases; null if
     * {@code records} can be stored as it is. The batches must have been framed and checked already.
     */
    static ByteBuf recompressedOrNull(ByteBuf records, BrokerCompressionType type, ByteBufAllocator alloc) {
        if (type == BrokerCompressionType.PRODUCER || alreadyStoredAs(records, type)) {
            return null;
        }
        ByteBuf out = alloc.heapBuffer(records.readableBytes());
        try {
            RecordBatches batches = RecordBatches.of(records);
            while (batches.hasNext()) {
                RecordBatch batch = batches.next();
                CompressionType target = type.targetFor(batch.compression());
                if (batch.compression() == target) {
                    out.writeBytes(batch.slice());
                } else {
                    ByteBuf converted = batch.recompressed(alloc, target, RecordBatch.DEFAULT_MAX_DECOMPRESSED_BYTES);
                    try {
                        out.writeBytes(converted);
                    } finally {
                        converted.release();
                    }
                }
            }
            return out;
        } catch (RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private static boolean alreadyStoredAs(ByteBuf records, BrokerCompressionType type) {
        RecordBatches batches = RecordBatches.of(records);
        while (batches.hasNext()) {
            RecordBatch batch = batches.next();
            if (batch.compression() != type.targetFor(batch.compression())) {
                return false;
            }
        }
        return true;
    }
}
