package io.minibroker.broker.log;

import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

class LogCleanerTest {
    private static final TopicPartition TP = new TopicPartition("changelog", 0);
    private static final long T0 = 1_700_000_000_000L;
    /** Small segments (about three one-record batches each) so that a few appends make several. */
    private static final LogConfig COMPACTED = LogConfig.defaults().withSegmentBytes(250).withIndexIntervalBytes(0)
            .withCompaction(86_400_000L, 0, 0.5);

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private LogManager logs;
    private LogCleaner cleaner;

    @AfterEach
    void close() throws Exception {
        if (cleaner != null) {
            cleaner.close();
        }
        if (logs != null) {
            logs.close();
        }
    }

    /** A cleaner whose rounds the test runs (its thread, if started, waits a minute first). */
    private LogCleaner newCleaner(long dedupeBufferBytes) {
        return new LogCleaner(logs, clock, 60_000, dedupeBufferBytes, 86_400_000L);
    }

    /** A cleaner round after every log is flushed, as the broker's maintenance flushes each rolled segment. */
    private int round() {
        return round(cleaner);
    }

    private int round(LogCleaner which) {
        logs.allLogs().forEach(PartitionLog::flush);
        return which.cleanRound();
    }

    private PartitionLog open(LogConfig config) throws IOException {
        return open(topic -> config);
    }

    private PartitionLog open(Function<String, LogConfig> configs) throws IOException {
        logs = TestLogs.manager(List.of(logDir), configs, clock);
        logs.startup();
        cleaner = newCleaner(1 << 20);
        return logs.getOrCreateLog(TP);
    }

    @Test
    void keepsTheLastRecordOfEachKeyLeavesTheActiveSegmentAloneAndEverySegmentItsOffsets() throws IOException {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30);
        List<Kv> before = readAll(log);
        List<Long> bases = segmentBases(log);
        long activeBase = bases.get(bases.size() - 1);

        assertThat(round()).as("segments rewritten").isPositive();

        List<Kv> after = readAll(log);
        Map<String, Kv> latest = new HashMap<>(); // as of the cleanable part: the active segment is not read
        before.stream().filter(kv -> kv.offset() < activeBase).forEach(kv -> latest.put(kv.key(), kv));
        List<Kv> expected = new ArrayList<>();
        for (Kv kv : before) {
            if (latest.get(kv.key()) == kv || kv.offset() >= activeBase) {
                expected.add(kv);
            }
        }
        assertThat(after).containsExactlyElementsOf(expected);
        assertThat(after.size()).isLessThan(before.size());
        assertSegmentsAbut(log);
        assertThat(log.logEndOffset()).isEqualTo(30);
    }

    @Test
    void aDeletedLogGetsNoCleanedCopyAndANewLogOfTheSameNameNoneOfItsFiles() throws Exception {
        PartitionLog old = open(COMPACTED);
        putThreeKeys(old, 0, 30);
        logs.deleteLog(TP);
        PartitionLog recreated = logs.getOrCreateLog(TP);
        assertThat(recreated.dir()).as("the same directory name").isEqualTo(logDir.resolve(TP.topic() + "-0"));

        assertThat(old.createCleanedCopy(0, clock.millis())).as("deleted: no copy").isNull();
        try (var files = Files.list(recreated.dir())) {
            assertThat(files.map(path -> path.getFileName().toString()))
                    .noneMatch(name -> name.endsWith(LogCleaner.CLEANED_SUFFIX));
        }
        LogSegment copy = recreated.createCleanedCopy(0, clock.millis());
        assertThat(copy).as("a live log's copy, in its own directory").isNotNull();
        assertThat(recreated.dir().resolve("00000000000000000000.log" + LogCleaner.CLEANED_SUFFIX)).exists();
        copy.closeAndDelete();
    }

    @Test
    void aRoundCleansOnlyOnceTheDirtyShareReachesTheRatioAndRemembersWhereItStopped() throws Exception {
        PartitionLog log = open(COMPACTED.toBuilder().minCleanableDirtyRatio(0.9).build());
        putThreeKeys(log, 0, 30);
        assertThat(round()).as("all dirty: ratio 1").isPositive();
        long cleaned = cleaner.segmentsCleaned();
        putThreeKeys(log, 30, 36);

        assertThat(round()).as("a little dirt over a clean log: under 0.9").isZero();
        assertThat(new OffsetCheckpointFile(logDir.resolve("cleaner-offset-checkpoint")).read())
                .as("Kafka's checkpoint of the first dirty offset").containsKey(TP);

        assertThat(cleaner.segmentsCleaned()).isEqualTo(cleaned);
        LogCleaner restarted = newCleaner(1 << 20);
        restarted.startup();
        try {
            assertThat(round(restarted)).as("a new cleaner resumes from the checkpoint").isZero();
            assertThat(restarted.segmentsCleaned()).isZero();
        } finally {
            restarted.close();
        }
    }

    @Test
    void aTombstoneOutlivesItsFirstCleaningAndGoesOnceDeleteRetentionMsHasPassed() throws IOException {
        PartitionLog log = open(COMPACTED.toBuilder().deleteRetentionMs(60_000).build());
        put(log, "gone", "v");
        put(log, "gone", null);
        put(log, "other", "1");
        for (int i = 0; i < 12; i++) {
            put(log, "k" + i, "v");
        }
        round();
        assertThat(readAll(log)).as("kept through the first cleaning").contains(new Kv(1, "gone", null));

        // KIP-534: that round stamped the tombstone's batch with a delete horizon of then plus delete.retention.ms.
        clock.advance(59_000);
        for (int i = 0; i < 30; i++) {
            put(log, "k" + i % 12, "again"); // enough dirt for another round
        }
        round();
        assertThat(readAll(log)).as("a round before the horizon keeps it").contains(new Kv(1, "gone", null));

        clock.advance(1_000);
        for (int i = 0; i < 30; i++) {
            put(log, "k" + i % 12, "more"); // and for a third
        }
        round();

        assertThat(readAll(log)).extracting(Kv::key).doesNotContain("gone").contains("other");
    }

    @Test
    void recordsWithoutAKeyAreDroppedAndARewrittenBatchKeepsItsOffsetsProducerFieldsAndCodec() throws IOException {
        LogConfig compacted = COMPACTED.withSegmentBytes(400);
        PartitionLog log = open(compacted.withCompacted(false)); // a topic made compacted after keyless records
        ByteBuf mixed = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.LZ4, 0, T0)
                .producer(42, (short) 3, 100)
                .append(T0, bytes("a"), bytes("old"), List.of())
                .append(T0 + 1, null, bytes("keyless"), List.of())
                .append(T0 + 2, bytes("b"), bytes("kept"), List.of())
                .append(T0 + 3, bytes("c"), bytes("old"), List.of())
                .build();
        appendRelease(log, mixed);
        log.updateConfig(compacted);
        put(log, "a", "new");
        put(log, "c", "new");
        while (log.segmentCount() < 3) {
            put(log, "filler", "x");
        }

        round();

        ByteBuf first = log.read(log.logStartOffset(), 1, true, Long.MAX_VALUE).readInto(TestBatches.ALLOC);
        try {
            RecordBatch rewritten = RecordBatches.of(first).next();
            assertThat(rewritten.baseOffset()).isZero();
            assertThat(rewritten.lastOffset()).as("the offset range kept").isEqualTo(3);
            assertThat(rewritten.recordCount()).isEqualTo(1);
            assertThat(rewritten.compression()).isEqualTo(CompressionType.LZ4);
            assertThat(rewritten.producerId()).isEqualTo(42);
            assertThat(rewritten.producerEpoch()).isEqualTo((short) 3);
            assertThat(rewritten.baseSequence()).isEqualTo(100);
            assertThat(rewritten.isValid()).isTrue();
        } finally {
            first.release();
        }
        assertThat(readAll(log).get(0)).isEqualTo(new Kv(2, "b", "kept"));
    }

    /** As Kafka's: the dirty share must be above min.cleanable.dirty.ratio, so at 1 only the max lag cleans. */
    @Test
    void aDirtyRatioOfOneLeavesTheLogToMaxCompactionLagMs() throws IOException {
        PartitionLog log = open(COMPACTED.toBuilder().minCleanableDirtyRatio(1.0).maxCompactionLagMs(60_000).build());
        putThreeKeys(log, 0, 30);
        assertThat(round()).as("all dirty: a ratio of 1, not above it").isZero();

        clock.advance(60_001);
        assertThat(round()).as("the oldest dirty record is past max.compaction.lag.ms").isPositive();
    }

    @Test
    void segmentsYoungerThanMinCompactionLagMsWait() throws IOException {
        PartitionLog log = open(COMPACTED.toBuilder().minCompactionLagMs(60_000).build());
        putThreeKeys(log, 0, 30);
        assertThat(round()).isZero();

        clock.advance(60_001);
        assertThat(round()).isPositive();
    }

    /**
     * As Kafka's findFirstUncleanableSegment, min.compaction.lag.ms looks at dirty segments only: clean segments of
     * recent records do not hold back the old dirty ones after them.
     */
    @Test
    void cleanSegmentsOfRecentRecordsDoNotHoldBackOldDirtyOnes() throws IOException {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30); // stamped now
        for (int i = 0; i < 9; i++) {
            putAt(log, "k" + i % 3, "older" + i, T0 - 600_000); // so the active segment holds old records only
        }
        assertThat(round()).as("cleaned with no lag").isPositive();
        for (int i = 0; i < 60; i++) {
            putAt(log, "k" + i % 3, "old" + i, T0 - 600_000); // dirty, ten minutes old
        }
        log.updateConfig(log.config().toBuilder().minCompactionLagMs(60_000).build());
        long cleaned = cleaner.segmentsCleaned();

        assertThat(round()).as("the dirty segments are past the lag").isPositive();
        assertThat(cleaner.segmentsCleaned()).isGreaterThan(cleaned);
    }

    /**
     * As Kafka's maxCompactionDelay: the earliest first-batch timestamp over the dirty segments counts, not the first
     * dirty segment's alone, and a timestamp of 0 is none.
     */
    @Test
    void maxCompactionLagMsLeavesOutTimestampsOfZero() throws IOException {
        PartitionLog log = open(COMPACTED.toBuilder().minCleanableDirtyRatio(1.0).maxCompactionLagMs(60_000).build());
        for (int i = 0; i < 6; i++) {
            putAt(log, "k" + i % 3, "zero" + i, 0); // the first dirty segment, stamped 0
        }
        putThreeKeys(log, 0, 30); // stamped now
        assertThat(round()).as("no dirty record older than the lag").isZero();

        clock.advance(60_001);
        assertThat(round()).isPositive();
    }

    @Test
    void aReadHoldingASegmentKeepsItsBytesAndTheNextReadFindsTheCleanedCopy() throws IOException {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30);
        LogReadResult held = log.read(0, 1 << 20, true, Long.MAX_VALUE);

        round();

        assertThat(decode(held)).as("the old bytes, whole").extracting(Kv::offset).startsWith(0L, 1L, 2L);
        assertThat(decode(log.read(0, 1 << 20, true, Long.MAX_VALUE))).extracting(Kv::offset).doesNotContain(0L);
    }

    @Test
    void aCleanedLogReopensAsItWasAndAStopMidSwapIsFinishedOrUndone() throws Exception {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30);
        round();
        List<Kv> cleaned = readAll(log);
        List<Long> bases = segmentBases(log);
        cleaner.close();
        logs.close();
        Path dir = logDir.resolve(TP.dirName());
        // A swap the stop cut short after the copy was whole: segment 0's copy holds its last batch only, and
        // its offset index was already moved in...
        Path[] first = LogSegment.files(dir, bases.get(0), "");
        ByteBuf segment = Unpooled.wrappedBuffer(Files.readAllBytes(first[0]));
        RecordBatch last = null;
        for (RecordBatches batches = RecordBatches.of(segment); batches.hasNext(); ) {
            last = batches.next();
        }
        long lastBase = last.baseOffset();
        Files.write(LogSegment.files(dir, bases.get(0), LogCleaner.SWAP_SUFFIX)[0], ByteBufUtil.getBytes(last.slice()));
        Files.delete(first[1]);
        // ...and one cut short before: a copy of segment 1 still being written.
        Path[] second = LogSegment.files(dir, bases.get(1), "");
        Files.write(LogSegment.files(dir, bases.get(1), LogCleaner.CLEANED_SUFFIX)[0], new byte[] {1, 2, 3});
        Files.copy(second[1], LogSegment.files(dir, bases.get(1), LogCleaner.SWAP_SUFFIX)[1],
                StandardCopyOption.REPLACE_EXISTING);

        PartitionLog reopened = open(COMPACTED);

        assertThat(readAll(reopened)).as("segment 0 swapped, segment 1 as it was")
                .isEqualTo(cleaned.stream().filter(kv -> kv.offset() >= lastBase).toList());
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .noneMatch(name -> name.endsWith(".swap") || name.endsWith(".cleaned"));
        }
    }

    /**
     * A cleaned segment's time index ends with its largest timestamp, as a rolled one's does: a clean restart takes a
     * rolled segment's largest timestamp from there, and a search by time would otherwise pass the segment over.
     */
    @Test
    void aCleanRestartFindsEachKeptRecordOfACleanedSegmentByItsTimestamp() throws Exception {
        LogConfig sparse = COMPACTED.withIndexIntervalBytes(4096); // no index entry but what a roll or cleaning adds
        PartitionLog log = open(sparse);
        for (int i = 0; i < 30; i++) {
            clock.advance(10); // record i at offset i is stamped T0 + 10 * (i + 1)
            put(log, i % 2 == 0 ? "u" + i : "k", "v" + i); // every segment keeps some records and loses others
        }
        assertThat(round()).isPositive();
        List<Kv> kept = readAll(log);
        assertThat(kept).filteredOn(kv -> kv.offset() < 20).hasSize(10);
        cleaner.close();
        logs.close();

        PartitionLog reopened = open(sparse);

        for (Kv kv : kept) {
            assertThat(reopened.offsetForTimestamp(T0 + 10 * (kv.offset() + 1))).as("record %d", kv.offset())
                    .map(TimestampAndOffset::offset).contains(kv.offset());
        }
    }

    @Test
    void aFollowerTakesItsLeadersCleanedBatchesAcrossTheGaps() throws IOException {
        PartitionLog leader = open(COMPACTED);
        putThreeKeys(leader, 0, 30);
        round();
        PartitionLog follower = TestLogs.open(logDir.resolve("follower"), TP, COMPACTED, clock, 0, 0, true);
        try {
            while (follower.logEndOffset() < leader.logEndOffset()) {
                LogReadResult fetched = leader.read(follower.logEndOffset(), 1 << 20, true, Long.MAX_VALUE);
                ByteBuf bytes = fetched.readInto(TestBatches.ALLOC);
                try {
                    follower.appendAsFollower(bytes);
                } finally {
                    bytes.release();
                }
            }
            assertThat(readAll(follower)).isEqualTo(readAll(leader));
        } finally {
            follower.close();
        }
    }

    /**
     * A follower rolls at the base offset its leader sent, which after the leader's cleaning can lie past the
     * follower's log end: its segments need not abut. After a clean restart the segment before such a gap still ends
     * at its last batch, so the cleaner cleans it; a truncation into the gap ends the log where asked, as Kafka's.
     */
    @Test
    void aFollowersSegmentEndingBeforeAGapIsCleanedAndTruncatedIntoAfterACleanRestart() throws Exception {
        PartitionLog log = open(COMPACTED);
        long[] fetchedBases = {0, 1, 2, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
        for (int i = 0; i < fetchedBases.length; i++) {
            appendAsFollower(log, fetchedBases[i], "k" + i % 2, "v" + i);
        }
        assertThat(segmentBases(log)).as("the gap 3..9 is at a segment boundary").contains(10L);
        List<Kv> written = readAll(log);
        cleaner.close();
        logs.close();
        log = open(COMPACTED);

        assertThat(round()).isPositive();
        List<Kv> cleaned = readAll(log);
        assertThat(cleaned).isNotEqualTo(written).containsAll(written.stream().filter(kv -> kv.offset() >= 19).toList());
        log.truncateTo(5);

        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(readAll(log)).isEqualTo(cleaned.stream().filter(kv -> kv.offset() < 5).toList());
    }

    private static void appendAsFollower(PartitionLog log, long baseOffset, String key, String value) {
        ByteBuf batch = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, baseOffset, T0)
                .append(T0, bytes(key), bytes(value), List.of()).build();
        try {
            log.appendAsFollower(batch);
        } finally {
            batch.release();
        }
    }

    @Test
    void aProducersLastBatchStaysEmptiedWhenItsRecordsAreSupersededSoItsSequenceSurvives() throws IOException {
        PartitionLog log = open(COMPACTED);
        putTwoProducersOverTheSameKeys(log);

        round();

        List<RecordBatch> batches = new ArrayList<>();
        List<ByteBuf> held = batchesOf(log, batches);
        try {
            assertThat(batches).filteredOn(batch -> batch.producerId() == 7).singleElement().satisfies(last -> {
                assertThat(last.baseSequence()).as("its last batch").isEqualTo(1);
                assertThat(last.recordCount()).as("emptied").isZero();
                assertThat(last.isValid()).isTrue();
            });
        } finally {
            held.forEach(ByteBuf::release);
        }
    }

    @Test
    void aProducerSilentForProducerIdExpirationMsLosesItsLastBatchToo() throws IOException {
        PartitionLog log = open(COMPACTED);
        putTwoProducersOverTheSameKeys(log);
        clock.advance(86_400_000);

        round();

        List<RecordBatch> batches = new ArrayList<>();
        List<ByteBuf> held = batchesOf(log, batches);
        try {
            assertThat(batches).noneMatch(batch -> batch.producerId() == 7);
        } finally {
            held.forEach(ByteBuf::release);
        }
    }

    @Test
    void listOffsetsByTimestampStepsOverTheEmptyBatchesTheCleanerLeaves() throws IOException {
        PartitionLog log = open(COMPACTED.withLogAppendTime(true));
        for (int i = 0; i < 12; i++) {
            put(log, "same", "v" + i);
        }
        round();
        long firstRecord = readAll(log).get(0).offset();

        assertThat(log.offsetForTimestamp(T0)).hasValueSatisfying(found ->
                assertThat(found.offset()).as("not an emptied batch's base offset").isEqualTo(firstRecord));
    }

    @Test
    void aFullKeyMapCleansUpToTheLastSegmentItReadWholeAndTheNextRoundGoesOn() throws IOException {
        PartitionLog log = open(COMPACTED);
        for (int i = 0; i < 30; i++) {
            put(log, "d" + i, "v"); // distinct keys: three of them fill a 400-byte map's estimate
        }
        cleaner = newCleaner(400);
        OffsetCheckpointFile checkpoint = new OffsetCheckpointFile(logDir.resolve("cleaner-offset-checkpoint"));

        round();
        assertThat(checkpoint.read()).containsEntry(TP, 3L);
        round();
        assertThat(checkpoint.read()).containsEntry(TP, 6L);
    }

    @Test
    void segmentsAboveTheRecoveryPointWaitUntilTheyAreFlushed() throws IOException {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30);

        assertThat(cleaner.cleanRound()).as("nothing fsynced yet").isZero();
        assertThat(round()).isPositive();
    }

    @Test
    void aSwapIsRefusedIfTheLogWasTruncatedWhileTheCopyWasMade() throws IOException {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30);
        log.flush();
        PartitionLog.CleanableSegment first = log.cleanableSegments().get(0);
        LogSegment.create(log.dir(), first.segment().baseOffset(), COMPACTED, T0, LogCleaner.CLEANED_SUFFIX).close();

        log.truncateTo(1);

        assertThat(log.replaceSegment(first)).isFalse();
        for (Path file : LogSegment.files(log.dir(), first.segment().baseOffset(), LogCleaner.CLEANED_SUFFIX)) {
            assertThat(file).doesNotExist();
        }
    }

    @Test
    void aDamagedSegmentIsLeftAsItIsNotCleanedIntoAShorterOne() throws IOException {
        PartitionLog log = open(COMPACTED);
        putThreeKeys(log, 0, 30);
        log.flush();
        Path first = segmentFiles(log).get(0);
        long size = Files.size(first);
        try (var channel = java.nio.channels.FileChannel.open(first, java.nio.file.StandardOpenOption.WRITE)) {
            channel.write(java.nio.ByteBuffer.wrap(new byte[] {0x7f}), size - 3); // inside the last batch's value
        }

        round();

        assertThat(Files.size(first)).isEqualTo(size);
        try (var files = Files.list(log.dir())) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(name -> name.endsWith(".cleaned"));
        }
    }

    // --- helpers

    record Kv(long offset, String key, String value) {
    }

    /** Records {@code from} to {@code to} (exclusive) of a stream cycling over keys k0, k1, k2: k(i % 3)=v(i). */
    private void putThreeKeys(PartitionLog log, int from, int to) {
        for (int i = from; i < to; i++) {
            put(log, "k" + i % 3, "v" + i);
        }
    }

    /** Producer 7 writes keys a and b, then producer 8 writes them over; then enough more to roll them out. */
    private void putTwoProducersOverTheSameKeys(PartitionLog log) {
        putAs(log, 7, 0, "a");
        putAs(log, 7, 1, "b");
        putAs(log, 8, 0, "a");
        putAs(log, 8, 1, "b");
        putThreeKeys(log, 0, 12);
    }

    /** One record {@code key}=x from idempotent producer {@code producerId} at {@code sequence}. */
    private void putAs(PartitionLog log, long producerId, int sequence, String key) {
        appendRelease(log, new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, clock.millis())
                .producer(producerId, (short) 0, sequence).append(clock.millis(), bytes(key), bytes("x"), List.of())
                .build());
    }

    /** Every batch of the log into {@code batches}; the returned buffers hold them until released. */
    private static List<ByteBuf> batchesOf(PartitionLog log, List<RecordBatch> batches) {
        List<ByteBuf> held = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            ByteBuf bytes = log.read(offset, 1, true, Long.MAX_VALUE).readInto(TestBatches.ALLOC);
            held.add(bytes);
            RecordBatch batch = RecordBatches.of(bytes).next();
            batches.add(batch);
            offset = batch.lastOffset() + 1;
        }
        return held;
    }

    private void put(PartitionLog log, String key, String value) {
        putAt(log, key, value, clock.millis());
    }

    /** One record {@code key}={@code value} stamped {@code timestamp} (CreateTime). */
    private static void putAt(PartitionLog log, String key, String value, long timestamp) {
        appendRelease(log, new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, timestamp)
                .append(timestamp, bytes(key), value == null ? null : bytes(value), List.of()).build());
    }

    private static void appendRelease(PartitionLog log, ByteBuf batch) {
        try {
            log.append(batch, 0);
        } finally {
            batch.release();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Every record, read batch after batch from the log start, stepping over the gaps as a consumer does, up to the
     * last batch (which a truncation may leave before the log end).
     */
    private static List<Kv> readAll(PartitionLog log) {
        List<Kv> all = new ArrayList<>();
        long offset = log.logStartOffset();
        while (offset < log.logEndOffset()) {
            LogReadResult result = log.read(offset, 1, true, Long.MAX_VALUE);
            if (result.isEmpty()) {
                break;
            }
            ByteBuf bytes = result.readInto(TestBatches.ALLOC);
            try {
                RecordBatch batch = RecordBatches.of(bytes).next();
                batch.ensureValid();
                all.addAll(records(batch));
                offset = batch.lastOffset() + 1;
            } finally {
                bytes.release();
            }
        }
        return all;
    }

    private static List<Kv> decode(LogReadResult result) {
        List<Kv> all = new ArrayList<>();
        ByteBuf bytes = result.readInto(TestBatches.ALLOC);
        try {
            for (RecordBatches batches = RecordBatches.of(bytes); batches.hasNext(); ) {
                all.addAll(records(batches.next()));
            }
        } finally {
            bytes.release();
        }
        return all;
    }

    private static List<Kv> records(RecordBatch batch) {
        List<Kv> all = new ArrayList<>();
        try (RecordIterator records = batch.records(TestBatches.ALLOC)) {
            while (records.hasNext()) {
                Record record = records.next();
                all.add(new Kv(record.offset(), text(record.key()), text(record.value())));
            }
        }
        return all;
    }

    private static String text(ByteBuf buf) {
        return buf == null ? null : buf.toString(StandardCharsets.UTF_8);
    }

    private static List<Long> segmentBases(PartitionLog log) {
        List<Long> bases = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(bases::add);
        return bases;
    }

    /** Each segment's last batch ends right before the next segment's base offset. */
    private static void assertSegmentsAbut(PartitionLog log) {
        List<Long> bases = segmentBases(log);
        for (int i = 1; i < bases.size(); i++) {
            ByteBuf bytes = log.read(bases.get(i) - 1, 1, true, Long.MAX_VALUE).readInto(TestBatches.ALLOC);
            try {
                RecordBatch batch = RecordBatches.of(bytes).next();
                assertThat(batch.lastOffset()).as("the batch before segment %d", bases.get(i))
                        .isEqualTo(bases.get(i) - 1);
                assertThat(batch.baseOffset()).isGreaterThanOrEqualTo(bases.get(i - 1));
            } finally {
                bytes.release();
            }
        }
    }

    private List<Path> segmentFiles(PartitionLog log) {
        return segmentBases(log).stream().map(base -> LogSegment.files(log.dir(), base, "")[0]).toList();
    }
}
