package io.minibroker.broker.log;

import io.netty.buffer.ByteBuf;

/**
 * Batches checked for one {@link PartitionLog} and ready to write (Kafka's validation result): the producer's
 * buffer, or a copy of it ({@code owned}) when a leader stored some batch in the topic's codec, with what the
 * write needs to know of them, and the config and clock reading they were checked against.
 *
 * <p>Checking and writing are apart so that a produce checks its records (which may decompress and
 * recompress) before it takes any lock, as Kafka validates before it looks at the producer's state: a
 * duplicate retry is refused like any batch if its records are bad. Close it once written or given up.
 */
public final class CheckedAppend implements AutoCloseable {

    final PartitionLog log;
    final ByteBuf batches;
    final boolean owned;
    final int totalBytes;
    final long offsetCount;
    final long recordCount;
    final long maxTimestamp;
    /** The last batch's last offset as received: a follower keeps it, a leader assigns its own. */
    final long lastOffset;
    final LogConfig config;
    final long nowMs;

    CheckedAppend(PartitionLog log, ByteBuf batches, boolean owned, int totalBytes, long offsetCount,
                  long recordCount, long maxTimestamp, long lastOffset, LogConfig config, long nowMs) {
        this.log = log;
        this.batches = batches;
        this.owned = owned;
        this.totalBytes = totalBytes;
        this.offsetCount = offsetCount;
        this.recordCount = recordCount;
        this.maxTimestamp = maxTimestamp;
        this.lastOffset = lastOffset;
        this.config = config;
        this.nowMs = nowMs;
    }

    /** Releases the copy in the topic's codec, if one was made; the producer's buffer stays the caller's. */
    @Override
    public void close() {
        if (owned) {
            batches.release();
        }
    }
}
