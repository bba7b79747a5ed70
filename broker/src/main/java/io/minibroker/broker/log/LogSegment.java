package io.minibroker.broker.log;

import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordIterator;
import io.minibroker.protocol.record.Record;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One segment of a partition log: the batches from {@link #baseOffset()} on, in three files named by that
 * offset zero-padded to 20 digits.
 *
 * <pre>
 * orders-0/00000000000000000000.log        batches as received, base offsets assigned, back to back
 *          00000000000000000000.index      sparse offset index ({@link OffsetIndex})
 *          00000000000000000000.timeindex  sparse time index ({@link TimeIndex})
 *          00000000000000000000.txnindex   aborted transactions whose marker is here ({@link TransactionIndex};
 *                                          only once there is one)
 *          00000000000000001234.log        the next segment starts at offset 1234
 * </pre>
 * Appends come from the partition's single writer; reads may run alongside and see only what
 * {@link #size()} covers, which moves only after the bytes are written. Every {@code index.interval.bytes}
 * of log the batch being appended is indexed: offset index entry (its last offset, its position) and, if
 * the segment's max timestamp grew since the last one, a time index entry.
 */
final class LogSegment implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(LogSegment.class);
    static final String LOG_SUFFIX = ".log";
    static final String INDEX_SUFFIX = ".index";
    static final String TIME_INDEX_SUFFIX = ".timeindex";
    /** Kafka's file names: the base offset in twenty digits, zero-padded, then the suffix. */
    private static final int FILE_NAME_DIGITS = 20;

    /** Changed once, by {@link #renameForDeletion}, under the log's lock. */
    private volatile Path logPath;
    private final long baseOffset;
    private final FileChannel channel;
    /** The same channel as reads hold it: closing the segment closes it only once no read holds it. */
    private final SharedFileChannel file;
    /** The batches of the log file, walked in order. */
    private final SegmentBatches batches;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private final int indexIntervalBytes;
    private final int maxOffsetIndexEntries;
    private final int maxTimeIndexEntries;
    /** When the segment was made or opened: the roll clock for batches without timestamps, as in Kafka. */
    private final long createdMs;
    /** How much before segment.ms this segment rolls (segment.jitter.ms), drawn once when it is made or opened. */
    private final long rollJitterMs;
    /** The writer's header scratch; readers bring their own. */
    private final BatchHeader writerHeader = new BatchHeader();

    private volatile int size;
    /**
     * The last appended batch's base offset (less the segment's, in the high half) and file position (the low half),
     * -1 when none was appended since the segment was opened, recovered or truncated. A read at or after that offset
     * (a consumer at the log end, woken by the very append) starts its scan there rather than at the offset index's
     * entry, which may be up to index.interval.bytes of batches back, each header a read of the file. Written after
     * {@link #size}, as one long so that a reader never pairs one batch's offset with another's position.
     */
    private volatile long lastAppendedBatch = -1;
    private volatile long nextOffset;
    private volatile long maxTimestamp = -1;
    private volatile long offsetOfMaxTimestamp = -1;
    private long firstBatchMaxTimestamp = -1;
    private int bytesSinceLastIndexEntry;
    /** How many bytes of a torn tail {@link #open} cut off the log file (0 if it was whole). */
    private long bytesCutOnOpen;

    /**
     * @param existing which of the segment's file names are in its directory (from one listing of it)
     * @param lazyIndexes whether the offset and time indexes are read at their first use rather than now
     */
    private LogSegment(Path dir, long baseOffset, LogConfig config, long nowMs, String fileSuffix,
                       Predicate<String> existing, boolean lazyIndexes) throws IOException {
        this.baseOffset = baseOffset;
        this.logPath = dir.resolve(fileName(baseOffset, LOG_SUFFIX) + fileSuffix);
        this.channel = FileChannel.open(logPath, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        long fileSize = channel.size();
        if (fileSize > Integer.MAX_VALUE) {
            channel.close();
            throw new IOException(logPath + " is larger than a segment can be: " + fileSize + " bytes");
        }
        this.file = new SharedFileChannel(channel);
        this.batches = new SegmentBatches(channel, logPath);
        this.size = (int) fileSize;
        this.nextOffset = baseOffset;
        OffsetIndex offsets = null;
        TimeIndex times = null;
        try { // an index that cannot be opened (its directory deleted under a cleaner) must not leak the log's channel
            String offsetsName = fileName(baseOffset, INDEX_SUFFIX) + fileSuffix;
            offsets = OffsetIndex.open(dir.resolve(offsetsName), baseOffset, fileSize, existing.test(offsetsName),
                    lazyIndexes);
            String timesName = fileName(baseOffset, TIME_INDEX_SUFFIX) + fileSuffix;
            times = TimeIndex.open(dir.resolve(timesName), baseOffset, existing.test(timesName), lazyIndexes);
            String txnName = fileName(baseOffset, TransactionIndex.SUFFIX) + fileSuffix;
            this.txnIndex = TransactionIndex.open(dir.resolve(txnName), existing.test(txnName));
        } catch (IOException | RuntimeException e) {
            if (offsets != null) {
                offsets.close();
            }
            if (times != null) {
                times.close();
            }
            channel.close();
            throw e;
        }
        this.timeIndex = times;
        this.offsetIndex = offsets;
        this.indexIntervalBytes = config.indexIntervalBytes();
        // segment.index.bytes bounds each index file, as it bounds Kafka's preallocated ones.
        this.maxOffsetIndexEntries = config.segmentIndexBytes() / OffsetIndex.ENTRY_BYTES;
        this.maxTimeIndexEntries = config.segmentIndexBytes() / TimeIndex.ENTRY_BYTES;
        this.createdMs = nowMs;
        this.rollJitterMs = config.randomSegmentJitterMs();
    }

    static String fileName(long offset, String suffix) {
        // Not String.format("%020d"): it parses its pattern each call, and opening 10,000 partitions makes about
        // 100,000 names (a quarter of the opening's CPU samples at that scale were spent here).
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        String digits = Long.toString(offset);
        StringBuilder name = new StringBuilder(FILE_NAME_DIGITS + suffix.length());
        for (int i = digits.length(); i < FILE_NAME_DIGITS; i++) {
            name.append('0');
        }
        return name.append(digits).append(suffix).toString();
    }

    /**
     * The log, offset index, time index and aborted transaction index files of the segment at {@code baseOffset}, each
     * name plus {@code fileSuffix}: what the cleaner's copy writes and its swap moves (the log file first here, moved
     * last). The transaction index may be absent, as a segment without aborted transactions has none.
     */
    static Path[] files(Path dir, long baseOffset, String fileSuffix) {
        return new Path[] {dir.resolve(fileName(baseOffset, LOG_SUFFIX) + fileSuffix),
                dir.resolve(fileName(baseOffset, INDEX_SUFFIX) + fileSuffix),
                dir.resolve(fileName(baseOffset, TIME_INDEX_SUFFIX) + fileSuffix),
                txnIndexPath(dir, baseOffset, fileSuffix)};
    }

    static Path txnIndexPath(Path dir, long baseOffset, String fileSuffix) {
        return dir.resolve(fileName(baseOffset, TransactionIndex.SUFFIX) + fileSuffix);
    }

    /** A new, empty segment; leftover files of that name (from a truncation before a crash) are dropped. */
    static LogSegment create(Path dir, long baseOffset, LogConfig config, long nowMs) throws IOException {
        return create(dir, baseOffset, config, nowMs, "");
    }

    /**
     * A new, empty segment whose files carry {@code fileSuffix} after their usual names, where the cleaner writes
     * a segment's replacement ({@code .cleaned}) without disturbing the segment itself.
     */
    static LogSegment create(Path dir, long baseOffset, LogConfig config, long nowMs, String fileSuffix)
            throws IOException {
        for (Path file : files(dir, baseOffset, fileSuffix)) {
            Files.deleteIfExists(file);
        }
        return new LogSegment(dir, baseOffset, config, nowMs, fileSuffix, name -> false, false);
    }

    /** {@link #open(Path, long, LogConfig, long, boolean, Predicate)}, asking the file system which files exist. */
    static LogSegment open(Path dir, long baseOffset, LogConfig config, long nowMs, boolean trustContents)
            throws IOException {
        return open(dir, baseOffset, config, nowMs, trustContents, name -> Files.exists(dir.resolve(name)));
    }

    /**
     * Opens an existing segment, {@code existing} saying which file names its directory holds. With
     * {@code trustContents}, its end state is taken from the last index entries and a scan of the batches after
     * them, and its indexes are read only then, not at all if the segment is empty (a lazy index, as Kafka's: a
     * lookup or an append reads them later); otherwise, or if an index is missing or corrupt, every batch is
     * validated and the indexes rebuilt ({@link #recover()}).
     */
    static LogSegment open(Path dir, long baseOffset, LogConfig config, long nowMs, boolean trustContents,
                           Predicate<String> existing) throws IOException {
        boolean indexesExisted = existing.test(fileName(baseOffset, INDEX_SUFFIX))
                && existing.test(fileName(baseOffset, TIME_INDEX_SUFFIX));
        boolean lazy = trustContents && indexesExisted;
        LogSegment segment = new LogSegment(dir, baseOffset, config, nowMs, "", existing, lazy);
        try {
            if (!indexesExisted || (!lazy && (segment.offsetIndex.wasCorrupt() || segment.timeIndex.wasCorrupt()))) {
                log.warn("Rebuilding the indexes of {}: {}", segment.logPath, indexesExisted ? "corrupt" : "missing");
                segment.bytesCutOnOpen = segment.recover();
            } else if (!trustContents || !segment.loadTail()) {
                segment.bytesCutOnOpen = segment.recover();
            }
            return segment;
        } catch (IOException | RuntimeException e) {
            segment.close();
            throw e;
        }
    }

    /** How many bytes of a torn tail opening the segment cut off its log file: 0 if none. */
    long bytesCutOnOpen() {
        return bytesCutOnOpen;
    }

    /**
     * Restores the in-memory end state from the last index entries; false if the tail does not scan cleanly or an
     * index was found corrupt (reading it now, if it was opened lazily). An empty segment needs no index read.
     */
    private boolean loadTail() throws IOException {
        if (size == 0) {
            return true; // nothing written: no end state to restore
        }
        if (offsetIndex.wasCorrupt() || timeIndex.wasCorrupt()) {
            log.warn("Rebuilding the indexes of {}: corrupt", logPath);
            return false;
        }
        long position = offsetIndex.lastPosition();
        maxTimestamp = timeIndex.lastTimestamp();
        offsetOfMaxTimestamp = timeIndex.lastTimestampOffset();
        bytesSinceLastIndexEntry = 0;
        while (position < size) {
            if (!writerHeader.readAt(channel, position, size) || writerHeader.magic() != RecordBatch.MAGIC
                    || writerHeader.baseOffset() < nextOffset) {
                return false;
            }
            noteBatch(writerHeader.lastOffset(), writerHeader.maxTimestamp());
            bytesSinceLastIndexEntry += writerHeader.sizeInBytes();
            position = writerHeader.end();
        }
        loadFirstBatchTimestamp();
        return true;
    }

    private void loadFirstBatchTimestamp() throws IOException {
        firstBatchMaxTimestamp = size > 0 && writerHeader.readAt(channel, 0, size) ? writerHeader.maxTimestamp() : -1;
    }

    /**
     * Validates every batch (sane length, magic 2, CRC, offsets increasing and inside the segment),
     * rebuilds both indexes, and truncates the file at the first batch that fails.
     *
     * @return the bytes cut off the end, 0 if every batch was sound
     */
    long recover() throws IOException {
        lastAppendedBatch = -1;
        offsetIndex.clear();
        timeIndex.clear();
        nextOffset = baseOffset;
        maxTimestamp = -1;
        offsetOfMaxTimestamp = -1;
        bytesSinceLastIndexEntry = 0;
        long fileSize = channel.size();
        long position = 0;
        ByteBuf batchBytes = Unpooled.buffer(RecordBatch.HEADER_BYTES);
        try {
            while (position < fileSize) {
                if (!writerHeader.readAt(channel, position, fileSize) || writerHeader.magic() != RecordBatch.MAGIC
                        || writerHeader.baseOffset() < nextOffset
                        || writerHeader.lastOffset() - baseOffset > Integer.MAX_VALUE
                        || writerHeader.lastOffset() < writerHeader.baseOffset()) {
                    break;
                }
                int batchSize = writerHeader.sizeInBytes();
                batchBytes.clear().ensureWritable(batchSize);
                if (!batches.readFully(batchBytes, position, batchSize) || !RecordBatch.wrap(batchBytes).isValid()) {
                    break;
                }
                indexBatch((int) position, writerHeader.lastOffset(), writerHeader.maxTimestamp());
                bytesSinceLastIndexEntry += batchSize;
                position += batchSize;
            }
        } finally {
            batchBytes.release();
        }
        long truncated = fileSize - position;
        if (truncated > 0) {
            log.warn("Recovery truncated {} at position {}, cutting {} bytes after offset {}",
                    logPath, position, truncated, nextOffset - 1);
            channel.truncate(position);
        }
        size = (int) position;
        // The time index ends with the largest timestamp, as after a roll: a later open may take it there.
        writeIndexesOut();
        txnIndex.truncateTo(nextOffset); // markers cut with the tail; the log's replay restores any entry missing
        loadFirstBatchTimestamp();
        return truncated;
    }

    /**
     * Appends one batch whose offsets are already assigned. The caller has checked that it fits
     * ({@link #shouldRoll}).
     */
    void append(RecordBatch batch) {
        int position = size;
        ByteBuf bytes = batch.slice();
        int length = bytes.readableBytes();
        try {
            // Through the buffer's own positioned write: a pooled buffer lends one view of its memory for it, where
            // nioBuffers() makes an array, a duplicate and a slice per batch.
            int done = 0;
            while (done < length) {
                done += bytes.getBytes(bytes.readerIndex() + done, channel, (long) position + done, length - done);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to " + logPath, e);
        }
        if (position == 0) {
            firstBatchMaxTimestamp = batch.maxTimestamp();
        }
        indexBatch(position, batch.lastOffset(), batch.maxTimestamp());
        bytesSinceLastIndexEntry += length;
        size = position + length;
        // Both fit 32 bits: shouldRoll keeps a segment's offsets within an int of its base, and its size is an int.
        lastAppendedBatch = (batch.baseOffset() - baseOffset) << 32 | position;
    }

    private void indexBatch(int position, long lastOffset, long batchMaxTimestamp) {
        noteBatch(lastOffset, batchMaxTimestamp);
        if (bytesSinceLastIndexEntry > indexIntervalBytes) {
            offsetIndex.append(lastOffset, position);
            timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
            bytesSinceLastIndexEntry = 0;
        }
    }

    private void noteBatch(long lastOffset, long batchMaxTimestamp) {
        if (batchMaxTimestamp > maxTimestamp) {
            maxTimestamp = batchMaxTimestamp;
            offsetOfMaxTimestamp = lastOffset;
        }
        nextOffset = lastOffset + 1;
    }

    /**
     * Whether an append of {@code bytes} ending at {@code lastOffset}, whose largest max timestamp is
     * {@code incomingMaxTimestamp}, must go to a new segment: it would not fit, the indexes are full, the
     * offsets would not fit the indexes' 4-byte relative offsets, or {@code segment.ms} has passed since
     * the first batch's max timestamp (or since the segment was made, if that batch has none).
     */
    boolean shouldRoll(int bytes, long lastOffset, long incomingMaxTimestamp, long nowMs, LogConfig config) {
        if (size == 0) {
            return false;
        }
        long waited = firstBatchMaxTimestamp >= 0 ? incomingMaxTimestamp - firstBatchMaxTimestamp : nowMs - createdMs;
        // A compacted log rolls by max.compaction.lag.ms too, as Kafka's, so that the cleaner may reach its records.
        long rollMs = config.compacted() ? Math.min(config.segmentMs(), config.maxCompactionLagMs()) : config.segmentMs();
        return size > config.segmentBytes() - bytes
                || waited > rollMs - rollJitterMs
                || offsetIndex.entries() >= maxOffsetIndexEntries
                || timeIndex.entries() >= maxTimeIndexEntries
                || lastOffset - baseOffset > Integer.MAX_VALUE;
    }

    /**
     * The time index gets the largest timestamp, and both indexes' files the entries still held in memory, not
     * forced: when a newer segment takes over (they are final now), and before a copy of the files (the cleaner's,
     * a move to another directory) so that the copy opens as this segment would after a clean close.
     */
    void writeIndexesOut() throws IOException {
        timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
        offsetIndex.writeTail();
        timeIndex.writeTail();
    }

    /**
     * Finds the first batch whose last offset is at least {@code offset}, scanning from the nearest
     * offset index entry; {@code header} is left on it.
     *
     * @return false if no batch of the readable part ({@code limit} bytes) reaches {@code offset}
     */
    boolean findBatch(long offset, long limit, BatchHeader header) throws IOException {
        long position = offsetIndex.lookup(offset);
        long lastAppended = lastAppendedBatch;
        if (lastAppended >= 0 && offset >= baseOffset + (lastAppended >>> 32)) {
            // Every batch before the last appended one ends below its base offset. Should that batch lie beyond
            // this read's limit (appended since), no batch within the limit reaches the offset, as a scan would find.
            position = Math.max(position, (int) lastAppended);
        }
        while (header.readAt(channel, position, limit)) {
            if (header.lastOffset() >= offset) {
                return true;
            }
            position = header.end();
        }
        return false;
    }

    /**
     * Reads from the batch holding {@code fetchOffset}, stopping before the batch holding {@code maxOffset}
     * (exclusive: the high watermark) and after {@code maxBytes}; with {@code minOneBatch} the first batch
     * is returned whole even if it is larger. The segment's file stays open for the read's whole length, and
     * for the result's while it holds bytes.
     *
     * @return the region, or null if this segment has no batch at or after {@code fetchOffset}
     * @throws ClosedChannelException if the segment was closed or deleted before the read began
     */
    LogReadResult read(long fetchOffset, int maxBytes, boolean minOneBatch, long maxOffset) throws IOException {
        if (!file.tryRetain()) {
            throw new ClosedChannelException(); // deleted before this read could hold it: as if read while closing
        }
        boolean handedOver = false;
        try {
            int limit = size;
            BatchHeader header = new BatchHeader();
            if (!findBatch(fetchOffset, limit, header)) {
                return null;
            }
            long start = header.position();
            if (header.lastOffset() >= maxOffset) {
                return LogReadResult.EMPTY;
            }
            // Kept for the result's batches() (a share fetch walks them), which then need not read it again; the
            // look-up of maxOffset below reuses the header.
            long firstOffset = header.baseOffset();
            long firstLastOffset = header.lastOffset();
            int firstBatchBytes = header.sizeInBytes();
            long firstProducerId = header.producerId();
            boolean firstTransactional = header.isTransactional();
            boolean firstControl = header.isControl();
            long end = limit;
            if (maxOffset < nextOffset && findBatch(maxOffset, limit, header)) {
                end = header.position();
            }
            int available = (int) (end - start);
            int length = Math.min(available, minOneBatch ? Math.max(maxBytes, firstBatchBytes) : maxBytes);
            if (length < firstBatchBytes && !minOneBatch) {
                length = 0;
            }
            if (length == 0) {
                return LogReadResult.EMPTY;
            }
            handedOver = true;
            return new LogReadResult(file, start, length, firstOffset, firstLastOffset, firstBatchBytes,
                    firstProducerId, firstTransactional, firstControl);
        } finally {
            if (!handedOver) {
                file.release();
            }
        }
    }

    /**
     * The first record with a timestamp of at least {@code timestamp}: the time index bounds where to
     * start, batch max timestamps find the batch, and its records (decompressed if need be) the record.
     *
     * @return null if no record of this segment is that recent
     */
    TimestampAndOffset findOffsetByTimestamp(long timestamp, long startingOffset) throws IOException {
        if (maxTimestamp < timestamp) {
            return null;
        }
        long olderUpTo = timeIndex.lastOffsetBefore(timestamp);
        long position = olderUpTo < 0 ? 0 : offsetIndex.lookup(olderUpTo);
        int limit = size;
        BatchHeader header = new BatchHeader();
        while (header.readAt(channel, position, limit)) {
            if (header.maxTimestamp() >= timestamp && header.lastOffset() >= startingOffset) {
                TimestampAndOffset found = firstRecordAtOrAfter(header, timestamp, startingOffset);
                if (found != null) {
                    return found; // else an empty batch the cleaner left, or a rewritten one: on to the next
                }
            }
            position = header.end();
        }
        return null;
    }

    private TimestampAndOffset firstRecordAtOrAfter(BatchHeader header, long timestamp, long startingOffset) throws IOException {
        ByteBufAllocator alloc = UnpooledByteBufAllocator.DEFAULT;
        ByteBuf bytes = alloc.heapBuffer(header.sizeInBytes());
        try {
            if (!batches.readFully(bytes, header.position(), header.sizeInBytes())) {
                return null;
            }
            RecordBatch batch = RecordBatch.wrap(bytes);
            if (batch.recordCount() == 0) {
                return null;
            }
            if (batch.isLogAppendTime()) {
                return new TimestampAndOffset(batch.maxTimestamp(), Math.max(batch.baseOffset(), startingOffset));
            }
            try (RecordIterator records = batch.records(alloc)) {
                while (records.hasNext()) {
                    Record record = records.next();
                    if (record.timestamp() >= timestamp && record.offset() >= startingOffset) {
                        return new TimestampAndOffset(record.timestamp(), record.offset());
                    }
                }
            }
            return null;
        } finally {
            bytes.release();
        }
    }

    /**
     * Cuts the segment back to the batches wholly below {@code offset}: the batch holding it goes too,
     * since batches are never split.
     *
     * @return the bytes removed
     */
    int truncateTo(long offset) throws IOException {
        int limit = size;
        if (!findBatch(offset, limit, writerHeader)) {
            return 0;
        }
        int position = (int) writerHeader.position();
        lastAppendedBatch = -1; // before the cut: the batch may be gone
        channel.truncate(position);
        offsetIndex.truncateToPosition(position);
        timeIndex.truncateToOffset(writerHeader.baseOffset());
        txnIndex.truncateTo(writerHeader.baseOffset());
        size = position;
        nextOffset = baseOffset;
        maxTimestamp = -1;
        offsetOfMaxTimestamp = -1;
        // The running max and the end offset are recomputed from what is left.
        if (!loadTail()) {
            recover();
        }
        return limit - position;
    }

    /** The batches of the log file, for the cleaner and the replay of the producers. */
    SegmentBatches batches() {
        return batches;
    }

    /** Indexes an aborted transaction whose marker this segment holds; the log's writer only. */
    void appendAbortedTxn(AbortedTxn entry) throws IOException {
        txnIndex.append(entry);
    }

    /** Writes a cleaner's copy's aborted transaction index whole, a file even when empty. */
    void writeTxnIndex(List<AbortedTxn> entries) throws IOException {
        txnIndex.rewrite(entries);
    }

    /** The aborted transactions whose marker this segment holds. */
    TransactionIndex txnIndex() {
        return txnIndex;
    }

    /** The log file's modification time, which a cleaned copy keeps (as Kafka's cleaner keeps it). */
    long lastModifiedMs() throws IOException {
        return Files.getLastModifiedTime(logPath).toMillis();
    }

    /** The first batch's max timestamp, -1 if none: when its records became dirty, for max.compaction.lag.ms. */
    long firstBatchTimestamp() {
        return firstBatchMaxTimestamp;
    }

    long baseOffset() {
        return baseOffset;
    }

    /** The offset after the last batch: the base offset when empty. */
    long nextOffset() {
        return nextOffset;
    }

    int size() {
        return size;
    }

    long maxTimestamp() {
        return maxTimestamp;
    }

    /** For time retention: the largest timestamp, or the file's modification time if no batch has one. */
    long largestTimestamp() throws IOException {
        return maxTimestamp >= 0 ? maxTimestamp : Files.getLastModifiedTime(logPath).toMillis();
    }

    Path logPath() {
        return logPath;
    }

    void flush() throws IOException {
        channel.force(true);
        offsetIndex.flush();
        timeIndex.flush();
        txnIndex.flush();
    }

    /**
     * Closes the indexes and lets go of the log file, which closes once no read holds it any more. The time index
     * gets the largest timestamp first, as at a roll and as Kafka's segment close adds it: the active segment's
     * file then ends as Kafka's does, and the next open finds the largest timestamp there. A segment without a
     * timestamp adds nothing (and leaves a lazy index unread).
     */
    @Override
    public void close() throws IOException {
        if (maxTimestamp >= 0) {
            timeIndex.maybeAppend(maxTimestamp, offsetOfMaxTimestamp);
        }
        try (offsetIndex; timeIndex; txnIndex) {
            file.release();
        }
    }

    /**
     * Kafka's change of a deleted segment's file suffixes to {@code .deleted}, under the log's lock: lets go of the
     * log file (a read still holding it reads on, whole; it closes with the last), closes the indexes for good and
     * renames the files, which {@link #deleteFiles()} deletes later, off the lock ({@link FileDeletions}).
     */
    void renameForDeletion() throws IOException {
        file.release();
        logPath = FileDeletions.renameForDeletion(logPath);
        offsetIndex.renameForDeletion();
        timeIndex.renameForDeletion();
        txnIndex.renameForDeletion();
    }

    /** Deletes the segment's files, as renamed for deletion or not: a deletion's last step. */
    void deleteFiles() throws IOException {
        Files.deleteIfExists(logPath);
        offsetIndex.deleteIfExists();
        timeIndex.deleteIfExists();
        txnIndex.deleteIfExists();
    }

    /**
     * Lets go of the log file (a read holding it reads on, whole) and closes the indexes for good, without writing
     * the index entries waiting, as {@link #close()} would: for a segment whose files go next.
     */
    void closeForDeletion() throws IOException {
        file.release();
        offsetIndex.closeForDeletion();
        timeIndex.closeForDeletion();
        txnIndex.close();
    }

    /** Deletes the files now ({@link #closeForDeletion()} first): for what was never shared (recovery, a copy). */
    void closeAndDelete() throws IOException {
        closeForDeletion();
        deleteFiles();
    }

    @Override
    public String toString() {
        return "LogSegment(" + logPath + ", offsets " + baseOffset + ".." + (nextOffset - 1) + ", " + size + " bytes)";
    }
}
