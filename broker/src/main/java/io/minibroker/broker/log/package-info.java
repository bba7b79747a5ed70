/**
 * Per-partition log storage in Kafka's on-disk layout.
 *
 * <pre>
 * &lt;log.dir&gt;/
 *     .kafka_cleanshutdown                       written by a clean close, deleted on open
 *     recovery-point-offset-checkpoint           "0", count, then "topic partition offset" lines
 *     log-start-offset-checkpoint                same format
 *     orders-0/
 *         00000000000000000000.log               v2 batches as received, offsets assigned
 *         00000000000000000000.index             8-byte entries: relative offset, file position
 *         00000000000000000000.timeindex         12-byte entries: timestamp, relative offset
 *         00000000000000001234.log ...           next segment, base offset 1234 (active)
 *         00000000000000000000.log.deleted ...   a deleted segment's files, until file.delete.delay.ms has passed
 *     gone-0.3f2a...-delete/                     a deleted topic's partition, until log.segment.delete.delay.ms
 * </pre>
 *
 * <p>{@link io.minibroker.broker.log.LogManager} opens every partition directory of {@code log.dirs};
 * {@link io.minibroker.broker.log.PartitionLog} appends (assigning offsets in place), reads (a file region
 * for the network layer), answers offset lookups and applies retention, coordinating {@code LogOffsets} (log start,
 * log end, high watermark), {@code LogValidator} (append checks), {@code LogWriter} (stamping, writing, rolling),
 * {@code LogSegments} (the segment map), {@code LogReader} (lock-free reads), {@code LogRetention},
 * {@code LogTruncation}, {@code LogFlushState} (the recovery point and flush bookkeeping) and {@code LogTransactions}
 * (producers and open transactions, {@code ProducerSnapshot} files, the last stable offset); {@code LogSegment} holds
 * one segment's files, {@code OffsetIndex} and {@code TimeIndex} its sparse indexes, {@code TransactionIndex} its
 * aborted transactions, {@code SharedFileChannel} keeps a segment's log file open while reads hold it, even after deletion,
 * {@code FileDeletions} deletes what a log renamed for deletion after its delay, off its lock, {@code LogRecovery} revalidates
 * what a crash may have torn, and {@code OffsetCheckpointFile} reads and writes the checkpoints.
 */
package io.minibroker.broker.log;
