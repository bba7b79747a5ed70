package io.minibroker.broker.log;

import io.minibroker.protocol.record.EndTransactionMarker;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Compaction, as Kafka's log cleaner does it: in a log whose {@code cleanup.policy} includes {@code compact},
 * only the last record of each key is kept, and a tombstone (a null value) for {@code delete.retention.ms} after
 * it was first cleaned, so that a consumer reading the log through has time to see the delete.
 *
 * <p>A log is split at its first dirty offset (from {@code cleaner-offset-checkpoint}; the log start at first):
 * below it was cleaned before, above it, up to the active segment and the high watermark, is dirty. When dirty
 * bytes make up more than {@code min.cleanable.dirty.ratio} of both (or the oldest dirty record is older than
 * {@code max.compaction.lag.ms}), a round reads the dirty segments into a map of each key's last offset, then
 * rewrites every segment up to the map's end without the records the map supersedes:
 *
 * <pre>
 * segments  [0: a=1 b=1] [2: a=2 c=1] [4: b=null d=1] [6: active]   first dirty offset 0, all dirty
 * key map   a -&gt; 2, b -&gt; 4, c -&gt; 3, d -&gt; 5
 * cleaned   [0: --- ( )] [2: a=2 c=1] [4: b=null d=1] [6: active]   first dirty offset now 6
 * </pre>
 * (one record per batch; {@code ( )} is an empty batch).
 * Batches whose records are partly superseded are rewritten with the rest, keeping their offsets, their offset
 * range, producer fields and codec; batches wholly superseded go, leaving gaps in the offsets, which consumers and
 * followers step over, except two kinds that stay as empty batches (Kafka's empty batch, 61 bytes): an idempotent
 * producer's last batch, unless older than {@code producer.id.expiration.ms}, so that its state (rebuilt from
 * batch headers) survives, as Kafka's cleaner keeps it; and a segment's last batch (segment 0's b=1 here), so each
 * segment still ends where the next begins and nothing else in the log has to allow for segments that end early.
 * Records without a key are dropped, as Kafka drops them. A tombstone that is the last record of its key
 * ({@code b=null}) stays for {@code delete.retention.ms} from the first round that finds it, as KIP-534 has it: that
 * round stamps its batch with a delete horizon of now plus {@code delete.retention.ms} (attribute bit 6, the horizon
 * in the base timestamp), and the first round past the horizon drops the batch's tombstones.
 *
 * <p>Transactions, as Kafka's cleaner treats them ({@link CleanedTransactions}): an aborted transaction's records
 * (known from the segments' {@code .txnindex}) are dropped and never enter the key map, so they cannot supersede a
 * committed value; a marker stays while any record of its transaction is left before it. A round that finds none
 * left stamps the marker with a delete horizon of now plus {@code delete.retention.ms}, as it stamps tombstones, and
 * the first round past that horizon drops it (or empties it, where a batch
 * must stay as above). A cleaned segment's {@code .txnindex} keeps only the aborted transactions with records still
 * before their marker, and is swapped in with the segment. Nothing at or past the last stable offset is cleaned.
 *
 * <p>Only segments below the active one, the high watermark, the last stable offset and the recovery point are
 * cleaned. Each is read
 * whole, its CRCs checked (a damaged segment is left as it is, never cleaned into a shorter one), written beside
 * the old one ({@code .cleaned} files) and swapped in by renames that a crash cannot leave half done
 * ({@link PartitionLog#replaceSegment}); the log's appends, reads and retention go on meanwhile. One thread cleans every log in turn every {@code log.cleaner.backoff.ms}; the key map holds at most
 * about {@code log.cleaner.dedupe.buffer.size} bytes, and a log with more dirty keys is cleaned a part per round.
 */
public final class LogCleaner implements AutoCloseable {

    static final String CLEANED_SUFFIX = ".cleaned";
    static final String SWAP_SUFFIX = ".swap";
    /** Heap bytes of one map entry besides its key's bytes: a map node, a ByteBuffer, the array header, a Long. */
    private static final int MAP_ENTRY_OVERHEAD = 112;
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false, true);
    private static final Logger LOG = LoggerFactory.getLogger(LogCleaner.class);

    private final LogManager logs;
    private final Clock clock;
    private final long backoffMs;
    private final long dedupeBufferBytes;
    private final long producerIdExpirationMs;
    /** Each compacted log's first dirty offset (what {@code cleaner-offset-checkpoint} holds) and for which log. */
    private final Map<TopicPartition, DirtyMark> firstDirtyOffsets = new ConcurrentHashMap<>();
    private final AtomicLong segmentsCleaned = new AtomicLong();
    private final Object wakeUp = new Object();
    private Thread thread;
    private volatile boolean closed;

    /**
     * A first dirty offset, valid for the log it was taken on while that log has not been truncated since: a log
     * recreated, truncated or restarted under it is cleaned from its start again, as Kafka's truncation lowers
     * the checkpoint.
     */
    private record DirtyMark(long offset, PartitionLog log, long truncations) {
    }

    /** A round's stop: the cleaner closing. Unwinds from inside a segment read; nothing is left half swapped. */
    private static final class Closing extends RuntimeException {
        Closing() {
            super("the log cleaner is closing", null, false, false);
        }
    }

    /** A key map's stop: it holds all {@code log.cleaner.dedupe.buffer.size} allows. */
    private static final class MapFull extends RuntimeException {
        MapFull() {
            super("the key map is full", null, false, false);
        }
    }

    /**
     * @param backoffMs              {@code log.cleaner.backoff.ms}: the pause between rounds
     * @param dedupeBufferBytes      {@code log.cleaner.dedupe.buffer.size}: the key map's memory bound
     * @param producerIdExpirationMs {@code producer.id.expiration.ms}: how long a producer's last batch is kept
     *                               (emptied if need be) so that its idempotent state survives the cleaning
     */
    public LogCleaner(LogManager logs, Clock clock, long backoffMs, long dedupeBufferBytes,
                      long producerIdExpirationMs) {
        this.logs = logs;
        this.clock = clock;
        this.backoffMs = backoffMs;
        this.dedupeBufferBytes = dedupeBufferBytes;
        this.producerIdExpirationMs = producerIdExpirationMs;
    }

    /** Reads the checkpoints, for the logs open now, and starts the cleaner's thread. */
    public synchronized void startup() {
        logs.cleanerCheckpoints().forEach((tp, offset) -> logs.log(tp).ifPresent(log ->
                firstDirtyOffsets.put(tp, new DirtyMark(offset, log, log.truncationCount()))));
        thread = new Thread(this::run, "log-cleaner");
        thread.setDaemon(true);
        thread.start();
    }

    /** A round every backoff, the first one backoff after the start, so that a broker's start is not slowed. */
    private void run() {
        while (true) {
            synchronized (wakeUp) {
                if (!closed) {
                    try {
                        wakeUp.wait(Math.max(1, backoffMs));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
            }
            if (closed) {
                return;
            }
            try {
                cleanRound();
            } catch (Throwable t) { // the cleaner must outlive any failure, or compaction would stop for good
                LOG.error("A log cleaner round failed; the next one tries again", t);
            }
        }
    }

    /**
     * Cleans every compacted log whose dirty ratio calls for it, then checkpoints the first dirty offsets; on the
     * cleaner's thread, or a test's. Returns how many segments were replaced by cleaned copies.
     */
    public int cleanRound() {
        int replaced = 0;
        for (PartitionLog log : logs.allLogs()) {
            if (closed) {
                break;
            }
            if (!log.config().compacted() || log.isDeleted()) {
                continue;
            }
            try {
                replaced += clean(log);
            } catch (Closing e) {
                break;
            } catch (IOException | RuntimeException e) { // this log only: the others are cleaned all the same
                LOG.error("Could not clean {}; it is tried again next round", log.topicPartition(), e);
            }
        }
        firstDirtyOffsets.values().removeIf(mark -> logs.log(mark.log().topicPartition()).orElse(null) != mark.log());
        Map<TopicPartition, Long> checkpoint = new HashMap<>();
        firstDirtyOffsets.forEach((tp, mark) -> checkpoint.put(tp, mark.offset()));
        try {
            logs.checkpointCleaner(checkpoint);
        } catch (IOException e) {
            LOG.error("Could not write cleaner-offset-checkpoint; the next round writes it", e);
        }
        return replaced;
    }

    /** Segments replaced by cleaned copies since the start, for tests and logs. */
    public long segmentsCleaned() {
        return segmentsCleaned.get();
    }

    private int clean(PartitionLog log) throws IOException {
        LogConfig config = log.config();
        long now = clock.millis();
        List<PartitionLog.CleanableSegment> belowLimits = log.cleanableSegments();
        if (belowLimits.isEmpty()) {
            return 0;
        }
        TopicPartition tp = log.topicPartition();
        long firstDirty = firstDirtyOffset(log, belowLimits.get(0).truncations());
        int firstDirtyIndex = 0;
        long cleanBytes = 0;
        while (firstDirtyIndex < belowLimits.size()
                && belowLimits.get(firstDirtyIndex).segment().nextOffset() <= firstDirty) {
            cleanBytes += belowLimits.get(firstDirtyIndex++).size();
        }
        if (firstDirtyIndex == belowLimits.size()) {
            return 0; // cleaned up to where it may clean
        }
        List<PartitionLog.CleanableSegment> dirty = belowLimits.subList(firstDirtyIndex, belowLimits.size());
        boolean overdue = pastMaxCompactionLag(dirty, config, now);
        List<PartitionLog.CleanableSegment> cleanable = belowLimits.subList(0,
                firstDirtyIndex + withinCompactionLag(dirty, config, now));
        long dirtyBytes = 0;
        for (PartitionLog.CleanableSegment segment : cleanable.subList(firstDirtyIndex, cleanable.size())) {
            dirtyBytes += segment.size();
        }
        if (!due(cleanBytes, dirtyBytes, overdue, config)) {
            return 0;
        }
        KeyMap latest = new KeyMap(dedupeBufferBytes);
        int mapped = firstDirtyIndex;
        long cleanableEnd = cleanable.get(cleanable.size() - 1).segment().nextOffset();
        CleanedTransactions abortedInDirty = new CleanedTransactions(log.abortedTransactions(
                cleanable.get(firstDirtyIndex).segment().baseOffset(), cleanableEnd));
        try {
            while (mapped < cleanable.size()) {
                PartitionLog.CleanableSegment segment = cleanable.get(mapped);
                segment.segment().batches().forEachBatch(segment.size(), batch -> {
                    checkOpen();
                    if (!batch.isControl() && !abortedInDirty.onDataBatch(batch)) { // an aborted record supersedes nothing
                        latest.add(batch);
                    }
                });
                mapped++;
            }
        } catch (MapFull e) {
            // The keys read from the segment it filled up in stay: each maps to a record that stays too.
            if (mapped == firstDirtyIndex) {
                LOG.warn("{} has more keys in segment {} than log.cleaner.dedupe.buffer.size ({} bytes) holds;"
                        + " it is not compacted", tp, cleanable.get(mapped).segment().baseOffset(), dedupeBufferBytes);
                return 0;
            }
        }
        List<PartitionLog.CleanableSegment> toClean = cleanable.subList(0, mapped);
        Set<Long> producersLastBatches = producersLastBatches(toClean, now);
        int replaced = 0;
        CleanedTransactions transactions = new CleanedTransactions(log.abortedTransactions(
                toClean.get(0).segment().baseOffset(), toClean.get(toClean.size() - 1).segment().nextOffset()));
        for (PartitionLog.CleanableSegment segment : toClean) {
            if (cleanSegment(log, segment, latest, transactions, producersLastBatches, now)) {
                replaced++;
                segmentsCleaned.incrementAndGet();
            }
        }
        long cleanedTo = toClean.get(toClean.size() - 1).segment().nextOffset();
        firstDirtyOffsets.put(tp, new DirtyMark(cleanedTo, log, cleanable.get(0).truncations()));
        LOG.info("Cleaned {} up to offset {}: {} of {} segments rewritten, {} keys in the map",
                tp, cleanedTo, replaced, toClean.size(), latest.size());
        return replaced;
    }

    /** Where the log's dirty part begins: its start if the mark is missing or stale (see {@link DirtyMark}). */
    private long firstDirtyOffset(PartitionLog log, long truncations) {
        DirtyMark mark = firstDirtyOffsets.get(log.topicPartition());
        if (mark == null || mark.log() != log || mark.truncations() != truncations) {
            return log.logStartOffset();
        }
        return Math.max(mark.offset(), log.logStartOffset());
    }

    private void checkOpen() {
        if (closed) {
            throw new Closing();
        }
    }

    /**
     * The last offsets of the batches to keep at least as empty batches: each producer's last in these segments,
     * unless older than {@code producer.id.expiration.ms} (by its max timestamp, as Kafka expires producers). A
     * producer's state is rebuilt from its batches' headers, so its last one must stay for its next sequence to
     * be accepted and a retry of it recognised, as Kafka's cleaner keeps it.
     */
    private Set<Long> producersLastBatches(List<PartitionLog.CleanableSegment> segments, long now) throws IOException {
        Map<Long, long[]> lastBatches = new HashMap<>(); // producer id -> {last offset, max timestamp}
        for (PartitionLog.CleanableSegment segment : segments) {
            segment.segment().batches().forEachBatchHeader(segment.size(), (producerId, lastOffset, maxTimestamp) -> {
                if (producerId >= 0) {
                    lastBatches.put(producerId, new long[] {lastOffset, maxTimestamp});
                }
            });
        }
        Set<Long> keep = new HashSet<>();
        for (long[] batch : lastBatches.values()) {
            if (now - batch[1] < producerIdExpirationMs) {
                keep.add(batch[0]);
            }
        }
        return keep;
    }

    /**
     * How many of the dirty segments come before the first one holding a record younger than
     * {@code min.compaction.lag.ms}: Kafka's findFirstUncleanableSegment, which looks at dirty segments only, so a
     * clean segment of recent records holds nothing back.
     */
    private static int withinCompactionLag(List<PartitionLog.CleanableSegment> dirty, LogConfig config, long now)
            throws IOException {
        if (config.minCompactionLagMs() == 0) {
            return dirty.size();
        }
        for (int i = 0; i < dirty.size(); i++) {
            if (now - dirty.get(i).segment().largestTimestamp() < config.minCompactionLagMs()) {
                return i;
            }
        }
        return dirty.size();
    }

    /**
     * Kafka's maxCompactionDelay: whether the earliest first-batch timestamp of the dirty segments is more than
     * {@code max.compaction.lag.ms} ago. Timestamps of 0 or below (none, or a producer's zero) are left out, as Kafka
     * leaves them out, or every such log would be overdue at once.
     */
    private static boolean pastMaxCompactionLag(List<PartitionLog.CleanableSegment> dirty, LogConfig config, long now) {
        long earliest = Long.MAX_VALUE;
        for (PartitionLog.CleanableSegment segment : dirty) {
            long timestamp = segment.segment().firstBatchTimestamp();
            if (timestamp > 0) {
                earliest = Math.min(earliest, timestamp);
            }
        }
        return earliest < now - Math.max(config.maxCompactionLagMs(), 0);
    }

    /**
     * Kafka's trigger (grabFilthiestCompactedLog): dirty bytes above {@code min.cleanable.dirty.ratio}, strictly, so
     * that a ratio of 1 leaves the log to {@code max.compaction.lag.ms}; or dirty bytes with a record past that lag.
     */
    private static boolean due(long cleanBytes, long dirtyBytes, boolean overdue, LogConfig config) {
        if (dirtyBytes == 0) {
            return false;
        }
        double ratio = (double) dirtyBytes / (cleanBytes + dirtyBytes);
        return ratio > config.minCleanableDirtyRatio() || overdue;
    }

    /**
     * Writes the segment's retained records to {@code .cleaned} files and has the log swap them in; nothing is
     * written if every record stays. Returns whether the segment was replaced.
     */
    private boolean cleanSegment(PartitionLog log, PartitionLog.CleanableSegment cleanable, KeyMap latest,
                                 CleanedTransactions transactions, Set<Long> keptEmpty, long now)
            throws IOException {
        LogSegment segment = cleanable.segment();
        LogSegment copy = log.createCleanedCopy(segment.baseOffset(), now);
        if (copy == null) {
            return false; // deleted meanwhile
        }
        boolean[] changed = {false};
        long horizon = now + log.config().deleteRetentionMs();
        try {
            segment.batches().forEachBatch(cleanable.size(), batch -> {
                checkOpen();
                ByteBuf rewritten = batch.isControl() ? cleanedMarker(batch, transactions, now, horizon)
                        : transactions.onDataBatch(batch) ? HEAP.buffer(0) // an aborted transaction's records all go
                        : retained(batch, latest, now, horizon);
                if (rewritten == null) {
                    copy.append(batch);
                    return;
                }
                changed[0] = true;
                try {
                    if (!rewritten.isReadable() && (batch.lastOffset() + 1 == segment.nextOffset()
                            || keptEmpty.contains(batch.lastOffset()))) {
                        // A producer's last batch keeps its state; a segment's keeps the segment ending where the
                        // next begins. Either stays as an empty batch; a data batch of a completed transaction (never
                        // a producer's last: its marker follows) not as a transactional one, which a replay would
                        // take for an open transaction once the marker is gone.
                        rewritten.release();
                        rewritten = batch.emptyCopy(HEAP, batch.isControl() && batch.isTransactional());
                    }
                    if (rewritten.isReadable()) {
                        copy.append(RecordBatch.wrap(rewritten));
                    }
                } finally {
                    rewritten.release();
                }
            });
            if (copy.nextOffset() != segment.nextOffset()) {
                throw new IOException("the cleaned copy of " + segment + " ends at " + copy.nextOffset());
            }
            List<AbortedTxn> indexed = transactions.retainedAbortedTxns().stream()
                    .filter(txn -> txn.lastOffset() >= segment.baseOffset() && txn.lastOffset() < segment.nextOffset())
                    .toList();
            if (!indexed.equals(segment.txnIndex().entries())) {
                changed[0] = true;
            }
            if (segment.txnIndex().exists() || !indexed.isEmpty()) {
                copy.writeTxnIndex(indexed); // swapped in with the segment: an empty file replaces one with entries
            }
            copy.writeIndexesOut(); // its time index ends with its largest timestamp, which opening it rolled reads
            copy.flush();
        } catch (IOException | RuntimeException e) {
            // Deleted, not closed: closing would write the copy's waiting index entries, and a disk that failed the
            // cleaning would fail that too, hiding the cleaning's error and leaving the copy's files behind.
            try {
                copy.closeAndDelete();
            } catch (IOException deleteFailed) {
                e.addSuppressed(deleteFailed);
            }
            try {
                log.discardCleanedCopy(segment.baseOffset()); // and the log's directory, if the log went meanwhile
            } catch (IOException discardFailed) {
                e.addSuppressed(discardFailed);
            }
            throw e;
        }
        copy.close();
        if (!changed[0]) {
            log.discardCleanedCopy(segment.baseOffset());
            return false;
        }
        return log.replaceSegment(cleanable);
    }

    /**
     * What becomes of a marker: null to keep it as it is, an empty buffer to drop it (its delete horizon passed), or
     * the marker stamped with {@code horizon} (the first round to find that it guards no record any more).
     */
    private static ByteBuf cleanedMarker(RecordBatch batch, CleanedTransactions transactions, long now, long horizon) {
        EndTransactionMarker marker = EndTransactionMarker.read(batch, HEAP);
        if (!transactions.onControlBatch(batch, marker)) {
            return null;
        }
        long stamped = batch.deleteHorizonMs();
        if (batch.recordCount() == 0 || stamped != RecordBatch.NO_TIMESTAMP && stamped <= now) {
            return HEAP.buffer(0); // an emptied marker was emptied once past its horizon
        }
        if (stamped != RecordBatch.NO_TIMESTAMP) {
            return null;
        }
        try (RecordIterator records = batch.records(HEAP)) {
            List<Record> all = new ArrayList<>();
            records.forEachRemaining(all::add);
            return rebuild(batch, all, horizon, true);
        }
    }

    /**
     * The batch without its superseded records, and without its tombstones once its delete horizon has passed: null
     * if it keeps them all and needs no horizon, an empty buffer if it keeps none, else the batch rebuilt with the
     * others at their offsets, in its codec, with its offset range and producer fields, and stamped with
     * {@code horizon} if it keeps a tombstone and had no horizon yet (Kafka's filterTo).
     */
    private static ByteBuf retained(RecordBatch batch, KeyMap latest, long now, long horizon) {
        long stamped = batch.deleteHorizonMs();
        boolean tombstonesExpired = stamped != RecordBatch.NO_TIMESTAMP && stamped <= now;
        try (RecordIterator records = batch.records(HEAP)) {
            List<Record> kept = new ArrayList<>();
            int count = 0;
            boolean keptTombstone = false;
            while (records.hasNext()) {
                Record record = records.next();
                count++;
                if (record.key() != null && !latest.supersedes(record)
                        && !(tombstonesExpired && record.value() == null)) {
                    kept.add(record);
                    keptTombstone |= record.value() == null;
                }
            }
            boolean stamp = keptTombstone && stamped == RecordBatch.NO_TIMESTAMP;
            if (kept.size() == count && !stamp) {
                return null;
            }
            if (kept.isEmpty()) {
                return HEAP.buffer(0);
            }
            long keptHorizon = stamp ? horizon : stamped; // a rewritten batch keeps the horizon it had
            return keptHorizon != RecordBatch.NO_TIMESTAMP ? rebuild(batch, kept, keptHorizon, true)
                    : rebuild(batch, kept, kept.get(0).timestamp(), false);
        }
    }

    /**
     * {@code batch} rewritten with only {@code kept} of its records, at their offsets, in its codec, with its offset
     * range, producer fields and flags; {@code baseTimestamp} a delete horizon if {@code deleteHorizon}.
     */
    private static ByteBuf rebuild(RecordBatch batch, List<Record> kept, long baseTimestamp, boolean deleteHorizon) {
        RecordBatchBuilder builder = new RecordBatchBuilder(HEAP, batch.compression(), batch.baseOffset(),
                baseTimestamp)
                .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence())
                .partitionLeaderEpoch(batch.partitionLeaderEpoch())
                .transactional(batch.isTransactional())
                .control(batch.isControl())
                .deleteHorizon(deleteHorizon)
                .logAppendTime(batch.isLogAppendTime())
                .lastOffsetDelta(batch.lastOffsetDelta());
        for (Record record : kept) {
            builder.append((int) (record.offset() - batch.baseOffset()), record.timestamp(), bytes(record.key()),
                    bytes(record.value()), record.headers());
        }
        return builder.build();
    }

    private static byte[] bytes(ByteBuf buf) {
        return buf == null ? null : ByteBufUtil.getBytes(buf);
    }

    /** Stops the thread, after the segment it is cleaning; nothing is left half swapped. */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        synchronized (wakeUp) {
            wakeUp.notifyAll();
        }
        Thread running;
        synchronized (this) {
            running = thread;
        }
        if (running != null) {
            running.join(); // never interrupted: an interrupt would close the channels it reads
        }
    }

    /**
     * Each key's last offset in the dirty records read so far, up to an estimated heap size; the round then cleans
     * only up to the last segment read whole. Keys are copied (the batch buffer is reused), compared by content.
     */
    private static final class KeyMap {
        private final long maxBytes;
        private final Map<ByteBuffer, Long> offsets = new HashMap<>();
        private long bytes;

        KeyMap(long maxBytes) {
            this.maxBytes = maxBytes;
        }

        /** Adds the batch's keys; throws MapFull, after the record that filled it, once it holds its bound. */
        void add(RecordBatch batch) {
            if (batch.isControl()) {
                return;
            }
            try (RecordIterator records = batch.records(HEAP)) {
                while (records.hasNext()) {
                    Record record = records.next();
                    if (record.key() != null) {
                        ByteBuffer key = ByteBuffer.wrap(ByteBufUtil.getBytes(record.key()));
                        if (offsets.put(key, record.offset()) == null) {
                            bytes += key.capacity() + MAP_ENTRY_OVERHEAD;
                            if (bytes >= maxBytes) {
                                throw new MapFull();
                            }
                        }
                    }
                }
            }
        }

        /** Whether a later record of the same key was read. */
        boolean supersedes(Record record) {
            Long last = offsets.get(record.key().nioBuffer());
            return last != null && last > record.offset();
        }

        int size() {
            return offsets.size();
        }
    }
}
