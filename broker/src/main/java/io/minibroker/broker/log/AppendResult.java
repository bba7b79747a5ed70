package io.minibroker.broker.log;

/**
 * What an append did, for the produce response and the broker's bookkeeping.
 *
 * @param firstOffset          the base offset given to the first batch
 * @param lastOffset           the last offset of the last batch
 * @param logAppendTime        the time stamped on the batches under LogAppendTime, else -1
 * @param maxTimestamp         the largest max timestamp among the batches
 * @param offsetOfMaxTimestamp the last offset of the batch carrying it, as Kafka's indexes record it
 * @param flushDue             whether {@code flush.messages} was reached: the records must be flushed before they
 *                             are acknowledged (asked under the append's lock, so it takes no second one)
 */
public record AppendResult(long firstOffset, long lastOffset, long logAppendTime, long maxTimestamp,
                           long offsetOfMaxTimestamp, boolean flushDue) {
}
