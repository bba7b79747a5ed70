package io.minibroker.broker.log;

/**
 * An aborted transaction as the {@code .txnindex} of the segment holding its ABORT marker records it (Kafka's
 * AbortedTxn): the producer, the offset of its first batch in the transaction, the marker's offset, and the last
 * stable offset once the marker was written (the first offset of the next transaction still open then, else the
 * offset after the marker), which lets a search stop at the first entry whose transactions end past its range.
 *
 * <pre>
 * version (int16, 0) | producerId (int64) | firstOffset (int64) | lastOffset (int64) | lastStableOffset (int64)
 * = 34 bytes, big-endian
 * </pre>
 */
public record AbortedTxn(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
    static final short VERSION = 0;
    static final int BYTES = 2 + 8 + 8 + 8 + 8;
}
