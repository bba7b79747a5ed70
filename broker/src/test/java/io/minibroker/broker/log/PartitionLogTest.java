package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.append;
import static io.minibroker.broker.log.TestBatches.baseOffsets;
import static io.minibroker.broker.log.TestBatches.batch;
import static io.minibroker.broker.log.TestBatches.decode;
import static io.minibroker.broker.log.TestBatches.readAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.FileRegion;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.WritableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PartitionLogTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path logDir;
    private final MutableClock clock = new MutableClock(T0);
    private PartitionLog log;

    @AfterEach
    void closeLog() throws IOException {
        if (log != null) {
            log.close();
        }
    }

    private PartitionLog open(LogConfig config) throws IOException {
        log = TestLogs.open(logDir, TP, config, clock, 0, 0, true);
        return log;
    }

    private static LogConfig small() {
        return LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(256);
    }

    @Test
    void assignsOffsetsAcrossAppendsAndReadsThemBack() throws IOException {
        open(LogConfig.defaults());
        AppendResult first = append(log, "a", 3, T0);
        AppendResult second = append(log, "b", 2, T0 + 5);

        assertThat(first.firstOffset()).isZero();
        assertThat(first.lastOffset()).isEqualTo(2);
        assertThat(first.logAppendTime()).isEqualTo(-1);
        assertThat(second.firstOffset()).isEqualTo(3);
        assertThat(second.lastOffset()).isEqualTo(4);
        assertThat(second.maxTimestamp()).isEqualTo(T0 + 5);
        assertThat(second.offsetOfMaxTimestamp()).isEqualTo(4);
        assertThat(log.logEndOffset()).isEqualTo(5);
        assertThat(readAll(log)).extracting(TestBatches.Entry::value).containsExactly("a-0", "a-1", "a-2", "b-0", "b-1");
        assertThat(readAll(log)).extracting(TestBatches.Entry::offset).containsExactly(0L, 1L, 2L, 3L, 4L);
    }

    @Test
    void appendsSeveralBatchesOfOneBufferWithOffsetsInOrder() throws IOException {
        open(LogConfig.defaults());
        ByteBuf first = batch("x", 2, T0);
        ByteBuf second = batch("y", 3, T0);
        ByteBuf both = TestBatches.ALLOC.buffer().writeBytes(first).writeBytes(second);
        first.release();
        second.release();
        AppendResult result = log.append(both, 7);
        both.release();

        assertThat(result.firstOffset()).isZero();
        assertThat(result.lastOffset()).isEqualTo(4);
        assertThat(baseOffsets(log.read(0, 1 << 20, true, Long.MAX_VALUE))).containsExactly(0L, 2L);
    }

    @Test
    void storesCompressedBatchesAsReceived() throws IOException {
        open(LogConfig.defaults());
        ByteBuf compressed = batch("z", 10, T0, CompressionType.GZIP);
        int size = compressed.readableBytes();
        log.append(compressed, 0);
        compressed.release();

        LogReadResult read = log.read(0, 1 << 20, true, Long.MAX_VALUE);
        assertThat(read.length()).isEqualTo(size);
        assertThat(decode(read)).hasSize(10).last().extracting(TestBatches.Entry::value).isEqualTo("z-9");
    }

    @Test
    void aLeaderStoresBatchesInTheTopicsCompressionTypeAndLeavesTheProducersBufferAlone() throws IOException {
        open(LogConfig.defaults().withCompressionType(BrokerCompressionType.LZ4));
        append(log, "a", 2, T0);
        ByteBuf gzip = batch("z", 10, T0, CompressionType.GZIP);
        ByteBuf sent = gzip.copy();
        AppendResult appended = log.append(gzip, 0);

        assertThat(appended.firstOffset()).isEqualTo(2);
        assertThat(appended.lastOffset()).isEqualTo(11);
        assertThat(gzip).as("the producer's bytes, offsets included, are not rewritten").isEqualTo(sent);
        gzip.release();
        sent.release();
        assertThat(codecs(log.read(0, 1 << 20, true, Long.MAX_VALUE)))
                .containsExactly(CompressionType.LZ4, CompressionType.LZ4);
        assertThat(readAll(log)).extracting(TestBatches.Entry::offset).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L,
                8L, 9L, 10L, 11L);
        assertThat(readAll(log)).last().extracting(TestBatches.Entry::value).isEqualTo("z-9");
    }

    @Test
    void inABufferOfSeveralBatchesOnlyThoseInAnotherCodecAreConverted() throws IOException {
        open(LogConfig.defaults().withCompressionType(BrokerCompressionType.LZ4));
        for (CompressionType first : List.of(CompressionType.GZIP, CompressionType.LZ4)) {
            ByteBuf a = batch("a", 2, T0, first);
            ByteBuf b = batch("b", 3, T0, CompressionType.SNAPPY);
            appendAndRelease(TestBatches.ALLOC.buffer().writeBytes(a).writeBytes(b));
            a.release();
            b.release();
        }

        assertThat(codecs(log.read(0, 1 << 20, true, Long.MAX_VALUE))).containsOnly(CompressionType.LZ4).hasSize(4);
        assertThat(readAll(log)).extracting(TestBatches.Entry::value)
                .containsExactly("a-0", "a-1", "b-0", "b-1", "b-2", "a-0", "a-1", "b-0", "b-1", "b-2");
    }

    @Test
    void uncompressedDecompressesAndProducerKeepsTheProducersCodec() throws IOException {
        open(LogConfig.defaults().withCompressionType(BrokerCompressionType.UNCOMPRESSED));
        appendAndRelease(batch("z", 3, T0, CompressionType.SNAPPY));
        log.updateConfig(LogConfig.defaults().withCompressionType(BrokerCompressionType.PRODUCER));
        appendAndRelease(batch("y", 3, T0, CompressionType.ZSTD));

        assertThat(codecs(log.read(0, 1 << 20, true, Long.MAX_VALUE)))
                .containsExactly(CompressionType.NONE, CompressionType.ZSTD);
        assertThat(readAll(log)).extracting(TestBatches.Entry::value).containsExactly("z-0", "z-1", "z-2",
                "y-0", "y-1", "y-2");
    }

    @Test
    void aFollowerKeepsTheLeadersCodecWhateverItsOwnCompressionType() throws IOException {
        open(LogConfig.defaults().withCompressionType(BrokerCompressionType.ZSTD));
        ByteBuf fromLeader = batch("f", 4, T0, CompressionType.GZIP);
        log.appendAsFollower(fromLeader);
        fromLeader.release();

        assertThat(codecs(log.read(0, 1 << 20, true, Long.MAX_VALUE))).containsExactly(CompressionType.GZIP);
    }

    @Test
    void aBatchThatOutgrowsMaxMessageBytesInTheTopicsCodecIsRefused() throws IOException {
        // Ten thousand identical bytes gzip to a few dozen; stored uncompressed they exceed max.message.bytes.
        open(new LogConfig.Builder().retentionMs(-1).maxMessageBytes(1_000)
                .compressionType(BrokerCompressionType.UNCOMPRESSED).build());
        ByteBuf gzip = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.GZIP, 0, T0)
                .append(T0, null, new byte[10_000], List.of()).build();
        try {
            assertThat(gzip.readableBytes()).isLessThan(1_000);
            assertThatThrownBy(() -> log.append(gzip, 0)).isInstanceOfSatisfying(LogException.class,
                    e -> assertThat(e.error()).isEqualTo(Errors.MESSAGE_TOO_LARGE));
        } finally {
            gzip.release();
        }
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void aRecordStampedMoreThanTimestampAfterMaxMsAheadIsRefusedAsKafkaRefusesIt() throws IOException {
        open(LogConfig.defaults()); // message.timestamp.after.max.ms: one hour
        assertThat(refusal(batch("late", 1, T0 + 3_600_001))).isEqualTo(Errors.INVALID_TIMESTAMP);
        appendAndRelease(batch("edge", 1, T0 + 3_600_000));

        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void timestampBeforeMaxMsChecksEveryRecordNotOnlyTheBatchsMax() throws IOException {
        open(LogConfig.defaults().withTimestampBounds(1_000, 1_000));
        ByteBuf oldFirst = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.LZ4, 0, T0)
                .append(T0, null, new byte[1], List.of())
                .append(T0 - 1_001, null, new byte[1], List.of()) // neither the base nor the max timestamp
                .build();
        assertThat(refusal(oldFirst)).isEqualTo(Errors.INVALID_TIMESTAMP);
        appendAndRelease(batch("recent", 2, T0 - 1_000));

        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @Test
    void aProducerBatchFlaggedLogAppendTimeIsRefusedOnALogAppendTimeTopicAndTakenAsCreateTimeElsewhere()
            throws IOException {
        open(LogConfig.defaults().withLogAppendTime(true));
        ByteBuf flagged = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0).logAppendTime(true)
                .append(T0, null, new byte[1], List.of()).build();
        assertThat(refusal(flagged)).isEqualTo(Errors.INVALID_TIMESTAMP);

        log.updateConfig(LogConfig.defaults());
        ByteBuf onCreateTime = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .logAppendTime(true).append(T0, null, new byte[1], List.of()).build();
        appendAndRelease(onCreateTime);

        ByteBuf stored = log.read(0, 1 << 20, true, Long.MAX_VALUE).readInto(TestBatches.ALLOC);
        try {
            RecordBatch batch = RecordBatch.wrap(stored);
            assertThat(batch.isLogAppendTime()).as("stored as CreateTime, as Kafka stores it").isFalse();
            assertThat(batch.maxTimestamp()).isEqualTo(T0);
            batch.ensureValid();
        } finally {
            stored.release();
        }
    }

    @Test
    void logAppendTimeAndFollowersIgnoreTheTimestampBounds() throws IOException {
        open(LogConfig.defaults().withTimestampBounds(0, 0).withLogAppendTime(true));
        appendAndRelease(batch("stamped-by-the-broker", 1, T0 + 86_400_000));
        log.updateConfig(LogConfig.defaults().withTimestampBounds(0, 0));
        ByteBuf fromLeader = batch("f", 1, T0 - 86_400_000);
        fromLeader.setLong(0, 1); // the leader's offset: next in this log
        log.appendAsFollower(fromLeader);
        fromLeader.release();

        assertThat(log.logEndOffset()).isEqualTo(2);
    }

    @Test
    void aCompactedTopicRefusesARecordWithoutAKeyAsKafkaDoes() throws IOException {
        open(LogConfig.defaults().withCompacted(true));
        ByteBuf oneKeyless = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.SNAPPY, 0, T0)
                .append(T0, "k".getBytes(StandardCharsets.UTF_8), new byte[1], List.of())
                .append(T0, null, new byte[1], List.of())
                .build();
        assertThat(refusal(oneKeyless)).isEqualTo(Errors.INVALID_RECORD);
        appendAndRelease(new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .append(T0, "k".getBytes(StandardCharsets.UTF_8), null, List.of()) // a tombstone has a key
                .build());

        assertThat(log.logEndOffset()).isEqualTo(1);
    }

    @Test
    void everyBadRecordIsNamedByItsIndexWithKafkasReasonsAndOneReasonEach() throws IOException {
        open(LogConfig.defaults().withCompacted(true));
        byte[] key = "k".getBytes(StandardCharsets.UTF_8);
        long twoHoursAhead = T0 + 7_200_000;
        ByteBuf batch = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.ZSTD, 0, T0)
                .append(T0, key, new byte[1], List.of())
                .append(T0, null, new byte[1], List.of())
                .append(twoHoursAhead, key, new byte[1], List.of())
                .append(twoHoursAhead, null, new byte[1], List.of()) // both faults: the key's is given
                .build();

        RecordValidationException refused = recordRefusal(batch);

        assertThat(refused.error()).as("any timestamp fault makes it INVALID_TIMESTAMP").isEqualTo(Errors.INVALID_TIMESTAMP);
        assertThat(refused.getMessage()).isEqualTo("One or more records have been rejected due to invalid timestamp");
        String keyless = "Compacted topic cannot accept message without key in topic partition orders-0";
        assertThat(refused.recordErrors()).containsExactly(
                new RecordValidationException.RecordError(1, keyless),
                new RecordValidationException.RecordError(2, "Timestamp " + twoHoursAhead + " of message with offset 2"
                        + " is out of range. The timestamp should be within [" + (T0 - Long.MAX_VALUE) + ", "
                        + (T0 + 3_600_000) + "]"),
                new RecordValidationException.RecordError(3, keyless));
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void recordFaultsOtherThanTimestampsAreInvalidRecordWithTheFirstThreeQuoted() throws IOException {
        open(LogConfig.defaults().withCompacted(true));
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0);
        for (int i = 0; i < 5; i++) {
            builder.append(T0, null, new byte[1], List.of());
        }

        RecordValidationException refused = recordRefusal(builder.build());

        assertThat(refused.error()).isEqualTo(Errors.INVALID_RECORD);
        String reason = "Compacted topic cannot accept message without key in topic partition orders-0";
        assertThat(refused.getMessage()).isEqualTo("One or more records have been rejected due to 5 record errors in"
                + " total, and only showing the first three errors at most: [RecordError(batchIndex=0, message='"
                + reason + "'), RecordError(batchIndex=1, message='" + reason + "'), RecordError(batchIndex=2,"
                + " message='" + reason + "')]");
        assertThat(refused.recordErrors()).extracting(RecordValidationException.RecordError::batchIndex)
                .containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void aBatchFlaggedLogAppendTimeOnALogAppendTimeTopicIsRefusedForEachRecordWithKafkasDescription()
            throws IOException {
        open(LogConfig.defaults().withLogAppendTime(true));
        ByteBuf flagged = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0).logAppendTime(true)
                .append(T0, "ab".getBytes(StandardCharsets.UTF_8), new byte[3], List.of())
                .append(T0, null, null, List.of())
                .build();

        RecordValidationException refused = recordRefusal(flagged);

        assertThat(refused.error()).isEqualTo(Errors.INVALID_TIMESTAMP);
        assertThat(refused.recordErrors()).extracting(RecordValidationException.RecordError::message).containsExactly(
                "Invalid timestamp type in message DefaultRecord(offset=0, timestamp=" + T0 + ", key=2 bytes,"
                        + " value=3 bytes). Producer should not set timestamp type to LogAppendTime.",
                "Invalid timestamp type in message DefaultRecord(offset=1, timestamp=" + T0 + ", key=0 bytes,"
                        + " value=0 bytes). Producer should not set timestamp type to LogAppendTime.");
    }

    /** The record faults an append of {@code batch} is refused for; the batch is released. */
    private RecordValidationException recordRefusal(ByteBuf batch) {
        try {
            return catchThrowableOfType(() -> log.append(batch, 0), RecordValidationException.class);
        } finally {
            batch.release();
        }
    }

    @Test
    void batchHeadersKafkaRefusesFromAClientAreRefusedInvalidRecord() throws IOException {
        open(LogConfig.defaults());
        ByteBuf countMismatch = batch("n", 3, T0);
        countMismatch.setInt(57, 2); // record count 2 against last offset delta 2
        resealCrc(countMismatch);
        assertThat(refusal(countMismatch)).isEqualTo(Errors.INVALID_RECORD);
        assertThat(refusal(new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0).control(true)
                .append(T0, new byte[1], new byte[1], List.of()).build())).isEqualTo(Errors.INVALID_RECORD);
        assertThat(refusal(new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0).producer(7, (short) 0, -1)
                .append(T0, null, new byte[1], List.of()).build())).isEqualTo(Errors.INVALID_RECORD);
        ByteBuf notAtZero = batch("b", 1, T0);
        notAtZero.setLong(0, 5); // a client's base offset must be 0 (outside the CRC)
        assertThat(refusal(notAtZero)).as("base offset 5").isEqualTo(Errors.INVALID_RECORD);
        ByteBuf negativeDelta = batch("d", 1, T0);
        negativeDelta.setInt(23, -1); // the last offset delta
        resealCrc(negativeDelta);
        assertThat(refusal(negativeDelta)).as("last offset delta -1").isEqualTo(Errors.INVALID_RECORD);

        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void malformedRecordsUnderASoundCrcAreRefusedInvalidRecordNotStored() throws IOException {
        open(LogConfig.defaults());
        ByteBuf malformed = batch("m", 2, T0);
        malformed.setByte(RecordBatch.HEADER_BYTES, 0x7e); // the first record's length varint: 63 bytes, not there
        resealCrc(malformed);

        assertThat(refusal(malformed)).as("Kafka's InvalidRecordException, not retried by clients")
                .isEqualTo(Errors.INVALID_RECORD);
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void aBatchWhoseHeaderUnderstatesItsMaxTimestampIsCheckedAndStoredByItsRecords() throws IOException {
        open(LogConfig.defaults());
        ByteBuf hidden = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.GZIP, 0, T0)
                .append(T0, null, new byte[1], List.of())
                .append(T0 + 7_200_000, null, new byte[1], List.of()) // two hours ahead
                .build();
        hidden.setLong(35, T0); // the header's max timestamp, as a faulty producer might write it
        resealCrc(hidden);
        assertThat(refusal(hidden)).isEqualTo(Errors.INVALID_TIMESTAMP);

        ByteBuf understated = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .append(T0, null, new byte[1], List.of())
                .append(T0 + 50, null, new byte[1], List.of())
                .build();
        understated.setLong(35, T0);
        resealCrc(understated);
        AppendResult appended = log.append(understated, 0);
        understated.release();

        assertThat(appended.maxTimestamp()).as("the records' max, not the header's").isEqualTo(T0 + 50);
        assertThat(log.maxTimestampAndOffset().orElseThrow().timestamp()).isEqualTo(T0 + 50);
        assertThat(decode(log.read(0, 1 << 20, true, Long.MAX_VALUE))).hasSize(2); // and the CRC still holds
    }

    /** Rewrites a test batch's CRC after its header was changed. */
    private static void resealCrc(ByteBuf batch) {
        batch.setInt(17, (int) RecordBatch.wrap(batch).computeChecksum());
    }

    /** The error an append of {@code batch} fails with; the batch is released. */
    private Errors refusal(ByteBuf batch) {
        try {
            log.append(batch, 0);
            throw new AssertionError("the append was accepted");
        } catch (LogException e) {
            return e.error();
        } finally {
            batch.release();
        }
    }

    private void appendAndRelease(ByteBuf batch) {
        try {
            log.append(batch, 0);
        } finally {
            batch.release();
        }
    }

    /** The codec of each complete batch of a read. */
    private static List<CompressionType> codecs(LogReadResult result) {
        List<CompressionType> codecs = new ArrayList<>();
        ByteBuf bytes = result.readInto(TestBatches.ALLOC);
        try {
            for (RecordBatches batches = RecordBatches.of(bytes); batches.hasNext(); ) {
                codecs.add(batches.next().compression());
            }
        } finally {
            bytes.release();
        }
        return codecs;
    }

    @Test
    void aFetchOffsetInsideABatchReadsFromTheStartOfThatBatch() throws IOException {
        open(LogConfig.defaults());
        append(log, "a", 5, T0);
        append(log, "b", 5, T0);

        LogReadResult read = log.read(7, 1 << 20, true, Long.MAX_VALUE);
        assertThat(read.firstOffset()).isEqualTo(5);
        assertThat(baseOffsets(read)).containsExactly(5L);
    }

    @Test
    void maxBytesLimitsTheReadButMinOneBatchReturnsAWholeFirstBatch() throws IOException {
        open(LogConfig.defaults());
        append(log, "a", 20, T0);
        append(log, "b", 20, T0);
        int firstBatch = log.read(0, 1 << 20, true, 20).length();

        assertThat(log.read(0, 10, false, Long.MAX_VALUE).isEmpty()).isTrue();
        LogReadResult atLeastOne = log.read(0, 10, true, Long.MAX_VALUE);
        assertThat(atLeastOne.length()).isEqualTo(firstBatch);
        assertThat(baseOffsets(atLeastOne)).containsExactly(0L);

        // As in Kafka, a limit inside the second batch returns its head, which a reader skips as partial.
        LogReadResult cut = log.read(0, firstBatch + 30, false, Long.MAX_VALUE);
        assertThat(cut.length()).isEqualTo(firstBatch + 30);
        assertThat(baseOffsets(cut)).containsExactly(0L);
    }

    @Test
    void aReadCanBeSentAsAFileRegionThatLeavesTheSegmentOpen() throws IOException {
        open(LogConfig.defaults());
        append(log, "a", 3, T0);
        append(log, "b", 3, T0);
        ByteBuf expected = log.read(3, 1 << 20, true, Long.MAX_VALUE).readInto(TestBatches.ALLOC);

        FileRegion region = log.read(3, 1 << 20, true, Long.MAX_VALUE).toFileRegion();
        assertThat(sendWhole(region)).isEqualTo(ByteBufUtil.getBytes(expected));
        assertThat(region.release()).isTrue();

        expected.release();
        assertThat(decode(log.read(0, 1 << 20, true, Long.MAX_VALUE))).hasSize(6);
        append(log, "c", 3, T0);
        assertThat(readAll(log)).hasSize(9);
    }

    private static byte[] sendWhole(FileRegion region) throws IOException {
        ByteArrayOutputStream sent = new ByteArrayOutputStream();
        WritableByteChannel target = Channels.newChannel(sent);
        while (region.transferred() < region.count()) {
            region.transferTo(target, region.transferred());
        }
        return sent.toByteArray();
    }

    @Test
    void aRegionOfASegmentDeletedByRetentionIsStillSentWholeAndItsFileClosesOnRelease() throws IOException {
        open(small().withRetention(-1, 0));
        for (int i = 0; i < 20; i++) {
            append(log, "r" + i, 5, T0);
        }
        Path firstSegment = log.dir().resolve(LogSegment.fileName(0, LogSegment.LOG_SUFFIX));
        byte[] expected = Files.readAllBytes(firstSegment);
        LogReadResult read = log.read(0, expected.length, false, Long.MAX_VALUE);
        assertThat(read.length()).isEqualTo(expected.length);
        FileRegion region = read.toFileRegion();

        assertThat(log.deleteOldSegments()).isPositive();
        assertThat(firstSegment).doesNotExist();
        assertThat(openDescriptorsOf(firstSegment)).isEqualTo(1);
        assertThat(sendWhole(region)).isEqualTo(expected);

        assertThat(region.release()).isTrue();
        assertThat(openDescriptorsOf(firstSegment)).isZero();
        assertThatThrownBy(() -> log.read(0, 100, true, Long.MAX_VALUE)).isInstanceOf(LogException.class)
                .extracting(e -> ((LogException) e).error()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE);
    }

    @Test
    void deletingTheLogKeepsAnUnreleasedReadWholeUntilItIsCopied() throws IOException {
        open(small());
        for (int i = 0; i < 20; i++) {
            append(log, "d" + i, 5, T0);
        }
        LogReadResult read = log.read(0, 1 << 20, true, Long.MAX_VALUE);
        List<TestBatches.Entry> expected = decode(log.read(0, 1 << 20, true, Long.MAX_VALUE));

        log.delete(0);
        log = null;
        assertThat(decode(read)).isEqualTo(expected).isNotEmpty();
    }

    @Test
    void aFlushQueuedByARollBeforeItsTopicWasDeletedDoesNothing() throws IOException {
        open(small());
        for (int i = 0; log.segmentCount() < 2; i++) {
            append(log, "gone" + i, 5, T0);
        }
        log.assignLeaderEpoch(3); // an epoch checkpoint is pending too
        Path dir = log.dir();

        log.delete(0);
        PartitionLog deleted = log;
        log = null;

        assertThat(deleted.flushIfRolled()).as("the roll's flush, run after the deletion").isFalse();
        deleted.flush();
        deleted.writeLeaderEpochCheckpoint();
        assertThat(dir).as("not brought back by a checkpoint write").doesNotExist();
    }

    /** How many of this process's file descriptors are open on {@code path}, deleted or not (Linux only). */
    private static long openDescriptorsOf(Path path) throws IOException {
        Path descriptors = Path.of("/proc/self/fd");
        Assumptions.assumeTrue(Files.isDirectory(descriptors), "needs /proc to see open descriptors");
        String target = path.toAbsolutePath().toString();
        long count = 0;
        try (var fds = Files.newDirectoryStream(descriptors)) {
            for (Path fd : fds) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith(target)) {
                        count++;
                    }
                } catch (IOException e) {
                    // closed while listed
                }
            }
        }
        return count;
    }

    @Test
    void readsStopBeforeTheMaxOffset() throws IOException {
        open(LogConfig.defaults());
        append(log, "a", 3, T0);
        append(log, "b", 3, T0);
        append(log, "c", 3, T0);

        assertThat(baseOffsets(log.read(0, 1 << 20, true, 6))).containsExactly(0L, 3L);
        assertThat(baseOffsets(log.read(0, 1 << 20, true, 5))).containsExactly(0L);
        assertThat(log.read(6, 1 << 20, true, 6).isEmpty()).isTrue();
        assertThat(log.read(9, 1 << 20, true, Long.MAX_VALUE).isEmpty()).isTrue();
    }

    @Test
    void readersAlongsideTheWriterSeeOnlyWholeAppendedBatches() throws Exception {
        open(small());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean done = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try {
                while (!done.get()) {
                    long end = log.logEndOffset();
                    if (end > 0) {
                        long offset = ThreadLocalRandom.current().nextLong(end);
                        List<TestBatches.Entry> read = decode(log.read(offset, 1 << 16, true, end));
                        assertThat(read).isNotEmpty();
                        assertThat(read.get(read.size() - 1).offset()).isLessThan(end);
                        assertThat(read).anyMatch(e -> e.offset() == offset);
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        reader.start();
        for (int i = 0; i < 500; i++) {
            append(log, "c" + i, 1 + i % 3, T0 + i);
        }
        done.set(true);
        reader.join();
        assertThat(failure.get()).isNull();
        assertThat(log.segmentCount()).isGreaterThan(5);
    }

    @Test
    void offsetsOutsideTheLogAreOutOfRange() throws IOException {
        open(LogConfig.defaults());
        append(log, "a", 3, T0);

        assertThatThrownBy(() -> log.read(4, 100, true, Long.MAX_VALUE))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE));
        assertThatThrownBy(() -> log.read(-1, 100, true, Long.MAX_VALUE))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE));
    }

    @Test
    void refusesCorruptOversizedAndEmptyInput() throws IOException {
        open(LogConfig.defaults());
        ByteBuf corrupt = batch("a", 2, T0);
        corrupt.setByte(corrupt.writerIndex() - 1, corrupt.getByte(corrupt.writerIndex() - 1) ^ 1);
        assertThatThrownBy(() -> log.append(corrupt, 0))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.CORRUPT_MESSAGE));
        corrupt.release();

        ByteBuf large = batch("big", 1, T0);
        log.updateConfig(new LogConfig.Builder().segmentBytes(4096).retentionMs(-1).maxMessageBytes(70)
                .indexIntervalBytes(4096).build());
        assertThatThrownBy(() -> log.append(large, 0))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.MESSAGE_TOO_LARGE));
        large.release();

        ByteBuf empty = TestBatches.ALLOC.buffer();
        assertThatThrownBy(() -> log.append(empty, 0))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.INVALID_RECORD));
        empty.release();
        assertThat(log.logEndOffset()).isZero();
    }

    @Test
    void logAppendTimeStampsTheBrokerTime() throws IOException {
        open(LogConfig.defaults().withLogAppendTime(true));
        clock.set(T0 + 1234);
        AppendResult result = append(log, "a", 2, T0);

        assertThat(result.logAppendTime()).isEqualTo(T0 + 1234);
        assertThat(result.maxTimestamp()).isEqualTo(T0 + 1234);
        ByteBuf bytes = log.read(0, 1 << 20, true, Long.MAX_VALUE).readInto(TestBatches.ALLOC);
        RecordBatch stored = RecordBatch.wrap(bytes);
        assertThat(stored.isLogAppendTime()).isTrue();
        assertThat(stored.maxTimestamp()).isEqualTo(T0 + 1234);
        assertThat(stored.isValid()).isTrue();
        bytes.release();
        assertThat(decode(log.read(0, 1 << 20, true, Long.MAX_VALUE)))
                .extracting(TestBatches.Entry::timestamp).containsOnly(T0 + 1234);
    }

    @Test
    void rollsWhenTheNextBatchWouldNotFitAndNeverSplitsABatch() throws IOException {
        open(small());
        List<Long> firstOffsets = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            firstOffsets.add(append(log, "r" + i, 5, T0).firstOffset());
        }
        assertThat(log.segmentCount()).isGreaterThan(1);
        List<Long> segmentBases = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(segmentBases::add);
        // Every segment starts at a batch boundary and stays within segment.bytes.
        assertThat(firstOffsets).containsAll(segmentBases);
        for (long base : segmentBases) {
            assertThat(Files.size(log.dir().resolve(LogSegment.fileName(base, ".log")))).isLessThanOrEqualTo(2048);
            assertThat(log.dir().resolve(LogSegment.fileName(base, ".index"))).exists();
            assertThat(log.dir().resolve(LogSegment.fileName(base, ".timeindex"))).exists();
        }
        assertThat(readAll(log)).hasSize(200);
    }

    @Test
    void rollsWhenSegmentMsHasPassedSinceTheFirstBatchTimestamp() throws IOException {
        open(LogConfig.defaults().withSegmentMs(1000));
        append(log, "a", 1, T0);
        append(log, "b", 1, T0 + 1000);
        assertThat(log.segmentCount()).isEqualTo(1);
        append(log, "c", 1, T0 + 1001);
        assertThat(log.segmentCount()).isEqualTo(2);
        assertThat(log.segmentBaseOffsets()).toIterable().containsExactly(0L, 2L);
    }

    @Test
    void aCompactedLogRollsByMaxCompactionLagMsWhenThatIsSoonerThanSegmentMs() throws IOException {
        LogConfig lagged = LogConfig.defaults().toBuilder().maxCompactionLagMs(1000).build();
        open(lagged); // cleanup.policy=delete: the lag means nothing
        appendKeyed(T0);
        appendKeyed(T0 + 1001);
        assertThat(log.segmentCount()).isEqualTo(1);

        log.updateConfig(lagged.withCompacted(true));
        appendKeyed(T0 + 2003);
        assertThat(log.segmentCount()).as("so the cleaner can reach records older than the lag").isEqualTo(2);
    }

    private void appendKeyed(long timestamp) {
        appendAndRelease(new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, timestamp)
                .append(timestamp, "k".getBytes(StandardCharsets.UTF_8), new byte[1], List.of()).build());
    }

    @Test
    void segmentJitterMsRollsSegmentsEarlierThanSegmentMsByARandomAmountEach() throws IOException {
        // Forty batches 500 ms apart. Without jitter a segment rolls once 1000 ms are exceeded: three batches a
        // segment, 14 in all. With segment.jitter.ms 1000 each segment rolls after more than 1000 - j ms, j drawn
        // below 1000 per segment: after its first batch about half the time, so about 27 segments. That 40
        // segments' draws give 14 or fewer is below one chance in a billion.
        open(LogConfig.defaults().withSegmentMs(1000).withSegmentJitterMs(1000));
        for (int i = 0; i < 40; i++) {
            append(log, "j", 1, T0 + 500L * i);
        }

        assertThat(log.segmentCount()).isGreaterThan(14).isLessThanOrEqualTo(40);
    }

    @Test
    void rollsByTheClockWhenBatchesCarryNoTimestamps() throws IOException {
        open(LogConfig.defaults().withSegmentMs(1000));
        append(log, "a", 1, -1);
        clock.advance(1000);
        append(log, "b", 1, -1);
        assertThat(log.segmentCount()).isEqualTo(1);
        clock.advance(1);
        append(log, "c", 1, -1);
        assertThat(log.segmentCount()).isEqualTo(2);
    }

    @Test
    void rollsWhenTheOffsetIndexIsFull() throws IOException {
        // Room for 3 offset index entries (and 2 time index ones); an entry per batch (interval 0) after
        // the first. One timestamp throughout, so the time index takes a single entry and stays below its limit.
        open(new LogConfig.Builder().segmentBytes(1 << 20).retentionMs(-1).indexIntervalBytes(0)
                .segmentIndexBytes(3 * OffsetIndex.ENTRY_BYTES).build());
        for (int i = 0; i < 5; i++) {
            append(log, "i" + i, 1, T0);
        }
        assertThat(log.segmentBaseOffsets()).toIterable().containsExactly(0L, 4L);
        assertThat(Files.size(log.dir().resolve(LogSegment.fileName(0, ".index")))).isEqualTo(3 * OffsetIndex.ENTRY_BYTES);
    }

    @Test
    void rollsWhenTheTimeIndexIsFull() throws IOException {
        // Room for 2 time index entries; rising timestamps add one at every index point.
        open(new LogConfig.Builder().segmentBytes(1 << 20).retentionMs(-1).indexIntervalBytes(0)
                .segmentIndexBytes(2 * TimeIndex.ENTRY_BYTES).build());
        for (int i = 0; i < 4; i++) {
            append(log, "i" + i, 1, T0 + i);
        }
        assertThat(log.segmentBaseOffsets()).toIterable().containsExactly(0L, 3L);
    }

    @Test
    void aSegmentIndexTooSmallForOneEntryRollsAtEveryAppendAsKafkas() throws IOException {
        // segment.index.bytes 4, Kafka's lowest: no room for one entry, so the indexes are full at once.
        open(new LogConfig.Builder().segmentBytes(1 << 20).retentionMs(-1)
                .segmentIndexBytes(LogConfig.MIN_SEGMENT_INDEX_BYTES).build());
        for (int i = 0; i < 3; i++) {
            append(log, "i" + i, 2, T0 + i);
        }
        assertThat(log.segmentBaseOffsets()).toIterable().containsExactly(0L, 2L, 4L);
        assertThat(readAll(log)).extracting(TestBatches.Entry::value)
                .containsExactly("i0-0", "i0-1", "i1-0", "i1-1", "i2-0", "i2-1");
    }

    @Test
    void maxMessageBytesZeroRefusesEveryBatchAsKafkas() throws IOException {
        open(new LogConfig.Builder().retentionMs(-1).maxMessageBytes(0).build());
        ByteBuf batch = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, 0, T0)
                .append(T0, null, new byte[1], List.of()).build();

        assertThat(refusal(batch)).isEqualTo(Errors.MESSAGE_TOO_LARGE);
    }

    @Test
    void closingWritesTheActiveSegmentsLargestTimestampToItsTimeIndex() throws IOException {
        open(LogConfig.defaults()); // index.interval.bytes 4096: these appends add no index entry of their own
        append(log, "a", 2, T0 + 5); // offsets 0-1
        append(log, "b", 3, T0 + 9); // offsets 2-4, the largest timestamp
        append(log, "c", 1, T0 + 7); // offset 5
        log.close();
        log = null;
        // As Kafka's LogSegment.close: one entry, the largest timestamp and the last offset of its batch.
        ByteBuffer entry = ByteBuffer.wrap(Files.readAllBytes(logDir.resolve(TP.dirName())
                .resolve(LogSegment.fileName(0, ".timeindex"))));
        assertThat(entry.remaining()).isEqualTo(TimeIndex.ENTRY_BYTES);
        assertThat(entry.getLong()).isEqualTo(T0 + 9);
        assertThat(entry.getInt()).as("relative offset").isEqualTo(4);
    }

    @Test
    void everyOffsetIsFoundThroughTheSparseIndex() throws IOException {
        open(LogConfig.defaults().withSegmentBytes(64 * 1024).withIndexIntervalBytes(200));
        int batches = 300;
        for (int i = 0; i < batches; i++) {
            append(log, "m" + i, 1 + i % 4, T0 + i);
        }
        log.flush(); // the active segment's entries reach its index files
        long indexBytes = Files.size(log.dir().resolve(LogSegment.fileName(0, ".index")));
        assertThat(indexBytes).isPositive().isLessThan(OffsetIndex.ENTRY_BYTES * (long) batches / 2);
        assertThat(Files.size(log.dir().resolve(LogSegment.fileName(0, ".timeindex")))).isPositive();

        List<TestBatches.Entry> all = readAll(log);
        for (TestBatches.Entry entry : all) {
            List<TestBatches.Entry> read = decode(log.read(entry.offset(), 1, true, Long.MAX_VALUE));
            assertThat(read).contains(entry);
            assertThat(read.get(0).offset()).isLessThanOrEqualTo(entry.offset());
        }
    }

    /**
     * As Kafka's searchOffsetInLocalLog: only the first segment whose largest timestamp reaches the target is searched.
     * A segment of records without timestamps takes its file's modification time (now, after T0), so a search for T0
     * stops there and finds nothing, though a later segment holds records stamped T0.
     */
    @Test
    void aTimestampSearchLooksOnlyInTheFirstSegmentWhoseLargestTimestampReachesIt() throws IOException {
        open(small());
        for (int i = 0; i < 30; i++) {
            append(log, "none" + i, 5, RecordBatch.NO_TIMESTAMP);
        }
        long stamped = log.logEndOffset();
        for (int i = 0; i < 30; i++) {
            append(log, "t" + i, 5, T0);
        }
        var bases = log.segmentBaseOffsets();
        bases.next();
        assertThat(bases.next()).as("the first segment holds records without timestamps only")
                .isLessThanOrEqualTo(stamped);

        assertThat(log.offsetForTimestamp(T0)).isEmpty();
    }

    /** As Kafka's MAX_TIMESTAMP: where no record has a timestamp, the first record, with timestamp -1. */
    @Test
    void theMaxTimestampOfALogWithoutTimestampsIsItsFirstRecordStampedMinusOne() throws IOException {
        open(small());
        assertThat(log.maxTimestampAndOffset()).as("no batch").isEmpty();
        for (int i = 0; i < 30; i++) {
            append(log, "none" + i, 5, RecordBatch.NO_TIMESTAMP);
        }

        assertThat(log.maxTimestampAndOffset()).contains(new TimestampAndOffset(RecordBatch.NO_TIMESTAMP, 0));
    }

    @Test
    void findsTheFirstRecordAtOrAfterATimestamp() throws IOException {
        open(small());
        for (int i = 0; i < 100; i++) {
            append(log, "t" + i, 2, T0 + 10L * i);
        }
        // Batch i holds offsets 2i, 2i+1 at timestamp T0 + 10i.
        assertThat(log.offsetForTimestamp(T0)).contains(new TimestampAndOffset(T0, 0));
        assertThat(log.offsetForTimestamp(T0 + 10 * 37)).contains(new TimestampAndOffset(T0 + 370, 74));
        assertThat(log.offsetForTimestamp(T0 + 10 * 37 + 1)).contains(new TimestampAndOffset(T0 + 380, 76));
        assertThat(log.offsetForTimestamp(T0 + 10 * 99 + 1)).isEmpty();
        assertThat(log.maxTimestampAndOffset()).contains(new TimestampAndOffset(T0 + 990, 198));
    }

    @Test
    void findsARecordInsideABatchByItsOwnTimestamp() throws IOException {
        open(LogConfig.defaults());
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.LZ4, 0, T0);
        for (int i = 0; i < 5; i++) {
            builder.append(T0 + 100L * i, null, new byte[] {(byte) i}, List.of());
        }
        ByteBuf batch = builder.build();
        log.append(batch, 0);
        batch.release();

        assertThat(log.offsetForTimestamp(T0 + 250)).contains(new TimestampAndOffset(T0 + 300, 3));
    }

    @Test
    void maxTimestampPointsAtTheFirstRecordCarryingItNotTheBatchsLastOffset() throws IOException {
        open(LogConfig.defaults());
        for (CompressionType compression : List.of(CompressionType.NONE, CompressionType.GZIP)) {
            // Timestamps T0+1, T0+500, T0+3, T0+500, T0+5: the largest first appears at the batch's second record.
            long base = log.logEndOffset();
            RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, compression, 0, T0);
            for (int i = 0; i < 5; i++) {
                long timestamp = i % 2 == 1 ? T0 + 500 + base : T0 + i;
                builder.append(timestamp, null, new byte[] {(byte) i}, List.of());
            }
            ByteBuf batch = builder.build();
            log.append(batch, 0);
            batch.release();

            assertThat(log.maxTimestampAndOffset()).as("%s", compression)
                    .contains(new TimestampAndOffset(T0 + 500 + base, base + 1));
        }
    }

    @Test
    void keepsEverythingAcrossACleanReopen() throws IOException {
        open(small());
        for (int i = 0; i < 60; i++) {
            append(log, "k" + i, 3, T0 + i);
        }
        List<TestBatches.Entry> before = readAll(log);
        int segments = log.segmentCount();
        log.close();

        open(small());
        assertThat(log.logEndOffset()).isEqualTo(180);
        assertThat(log.segmentCount()).isEqualTo(segments);
        assertThat(readAll(log)).isEqualTo(before);
        assertThat(log.maxTimestampAndOffset()).contains(new TimestampAndOffset(T0 + 59, 177));
        assertThat(append(log, "after", 1, T0 + 100).firstOffset()).isEqualTo(180);
    }

    @Test
    void flushesEveryFlushIntervalMessagesAndMovesTheRecoveryPoint() throws IOException {
        open(LogConfig.defaults().withFlushIntervalMessages(5).withFlushIntervalMs(1000));
        append(log, "a", 3, T0);
        assertThat(log.recoveryPoint()).isZero();
        append(log, "b", 3, T0);
        assertThat(log.recoveryPoint()).isEqualTo(6);
        append(log, "c", 1, T0);
        assertThat(log.flushIfDue()).isFalse();
        clock.advance(1000);
        assertThat(log.flushIfDue()).isTrue();
        assertThat(log.recoveryPoint()).isEqualTo(7);
    }

    @Test
    void aRollLeavesTheFinishedSegmentsFsyncToTheBackground() throws IOException {
        open(LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(256));
        assertThat(log.flushIfRolled()).as("nothing rolled yet").isFalse();
        while (log.segmentCount() == 1) {
            append(log, "r", 10, T0);
        }
        long end = log.logEndOffset();
        assertThat(log.recoveryPoint()).as("the append that rolled did not fsync").isZero();

        assertThat(log.flushIfRolled()).isTrue();

        assertThat(log.recoveryPoint()).isEqualTo(end);
        assertThat(log.flushIfRolled()).as("flushed already").isFalse();
    }

    @Test
    void anUnflushedAppendLeavesTheDueFsyncToItsCaller() throws IOException {
        open(LogConfig.defaults().withFlushIntervalMessages(1));
        ByteBuf batch = batch("a", 2, T0);
        AppendResult appended;
        try {
            appended = log.appendUnflushed(batch, 0);
        } finally {
            batch.release();
        }
        assertThat(log.recoveryPoint()).isZero();
        assertThat(appended.flushDue()).isTrue();
        assertThat(log.flushDue()).isTrue();

        log.flush();

        assertThat(log.recoveryPoint()).isEqualTo(2);
        assertThat(log.flushDue()).isFalse();
    }

    @Test
    void retentionByTimeDeletesOldInactiveSegments() throws IOException {
        // segment.ms below the gap, so the new batches start a segment of their own.
        open(small().withRetention(60_000, -1).withSegmentMs(30_000));
        for (int i = 0; i < 40; i++) {
            append(log, "old" + i, 5, T0);
        }
        int oldSegments = log.segmentCount();
        clock.set(T0 + 60_000);
        for (int i = 0; i < 5; i++) {
            append(log, "new" + i, 5, T0 + 60_000);
        }
        assertThat(log.deleteOldSegments()).isZero();

        clock.set(T0 + 60_001);
        int deleted = log.deleteOldSegments();
        assertThat(deleted).isEqualTo(oldSegments).isGreaterThan(1);
        assertThat(log.logStartOffset()).isEqualTo(200);
        assertThat(readAll(log)).extracting(TestBatches.Entry::value).startsWith("new0-0");
        assertThatThrownBy(() -> log.read(0, 100, true, Long.MAX_VALUE)).isInstanceOf(LogException.class);
    }

    @Test
    void whenEveryRecordHasExpiredTheActiveSegmentIsRolledAndDeletedToo() throws IOException {
        open(small().withRetention(60_000, -1));
        for (int i = 0; i < 30; i++) {
            append(log, "x" + i, 5, T0);
        }
        clock.set(T0 + 60_001);
        assertThat(log.deleteOldSegments()).isPositive();
        assertThat(log.segmentCount()).isEqualTo(1);
        assertThat(log.logStartOffset()).isEqualTo(150);
        assertThat(log.logEndOffset()).isEqualTo(150);
        assertThat(log.size()).isZero();
        assertThat(log.deleteOldSegments()).isZero();
        assertThat(append(log, "y", 1, T0 + 60_001).firstOffset()).isEqualTo(150);
    }

    /**
     * As Kafka's deletableSegments: retention takes no segment holding an offset at or past the high watermark, so
     * the log start never passes it; once the high watermark reaches the log end, everything that breaches goes.
     */
    @Test
    void retentionByTimeKeepsTheSegmentsFromTheOneHoldingTheHighWatermark() throws IOException {
        open(small().withRetention(60_000, -1));
        List<Long> bases = segmentsOfOldBatchesUpToTheHighWatermarkInTheThird();
        clock.set(T0 + 60_001);

        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertThat(log.logStartOffset()).isEqualTo(bases.get(2));

        log.setReplicatedHighWatermark(log.logEndOffset());
        assertThat(log.deleteOldSegments()).isEqualTo(bases.size() - 2);
        assertThat(log.logStartOffset()).isEqualTo(log.logEndOffset()).isEqualTo(500);
    }

    @Test
    void retentionBySizeKeepsTheSegmentsFromTheOneHoldingTheHighWatermark() throws IOException {
        open(small().withRetention(-1, 0));
        List<Long> bases = segmentsOfOldBatchesUpToTheHighWatermarkInTheThird();

        assertThat(log.deleteOldSegments()).isEqualTo(2);
        assertThat(log.logStartOffset()).isEqualTo(bases.get(2));
    }

    /** 100 batches at T0 over several segments, and a replicated high watermark inside the third; their bases. */
    private List<Long> segmentsOfOldBatchesUpToTheHighWatermarkInTheThird() {
        for (int i = 0; i < 100; i++) {
            append(log, "h" + i, 5, T0);
        }
        List<Long> bases = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(bases::add);
        assertThat(bases).hasSizeGreaterThan(4);
        log.setReplicatedHighWatermark(bases.get(2) + 1);
        return bases;
    }

    @Test
    void retentionBySizeDeletesTheOldestSegmentsWhileTheLogIsTooLarge() throws IOException {
        open(small().withRetention(-1, 4096));
        for (int i = 0; i < 100; i++) {
            append(log, "s" + i, 5, T0);
        }
        long sizeBefore = log.size();
        log.deleteOldSegments();
        assertThat(log.size()).isLessThanOrEqualTo(sizeBefore);
        assertThat(log.size() - 4096).isLessThan(2048);
        assertThat(log.segmentCount()).isGreaterThanOrEqualTo(1);
        assertThat(log.logStartOffset()).isEqualTo(log.segmentBaseOffsets().next());
        assertThat(readAll(log)).last().extracting(TestBatches.Entry::value).isEqualTo("s99-4");
    }

    /** As Kafka's deleteRetentionSizeBreachedSegments, the active segment counts: retention.bytes=0 empties the log. */
    @Test
    void retentionBytesOfZeroDeletesTheActiveSegmentTooAfterARoll() throws IOException {
        open(small().withRetention(-1, 0));
        for (int i = 0; i < 30; i++) {
            append(log, "z" + i, 5, T0);
        }
        int segments = log.segmentCount();

        assertThat(log.deleteOldSegments()).isEqualTo(segments);
        assertThat(log.segmentCount()).isEqualTo(1);
        assertThat(log.size()).isZero();
        assertThat(log.logStartOffset()).isEqualTo(log.logEndOffset()).isEqualTo(150);
        assertThat(log.deleteOldSegments()).as("an empty active segment stays").isZero();
        assertThat(append(log, "y", 1, T0).firstOffset()).isEqualTo(150);
    }

    @Test
    void deleteRecordsMovesTheLogStartAndDropsWholeSegmentsBelowIt() throws IOException {
        open(small());
        for (int i = 0; i < 40; i++) {
            append(log, "d" + i, 5, T0);
        }
        List<Long> bases = new ArrayList<>();
        log.segmentBaseOffsets().forEachRemaining(bases::add);
        long target = bases.get(2) + 1;

        assertThat(log.deleteRecordsBefore(target)).isEqualTo(target);
        assertThat(log.logStartOffset()).isEqualTo(target);
        assertThat(log.segmentBaseOffsets().next()).isEqualTo(bases.get(2));
        assertThat(readAll(log).get(0).offset()).isEqualTo(target);
        assertThatThrownBy(() -> log.read(target - 1, 100, true, Long.MAX_VALUE))
                .isInstanceOfSatisfying(LogException.class, e -> assertThat(e.error()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE));
        assertThatThrownBy(() -> log.deleteRecordsBefore(1000)).isInstanceOf(LogException.class);
    }

    /**
     * A follower whose leader's cleaner removed offsets 3 to 9 has the same gap; truncated into it, its log ends where
     * asked, as Kafka's, so that it fetches on from there and appends the leader's next batch.
     */
    @Test
    void aTruncationIntoAGapEndsTheLogAtTheOffsetAsked() throws IOException {
        open(LogConfig.defaults());
        appendAsFollower(0, "before", 3);
        appendAsFollower(10, "after", 3);

        log.truncateTo(6);

        assertThat(log.logEndOffset()).isEqualTo(6);
        assertThat(log.highWatermark()).isEqualTo(6);
        assertThat(readAll(log)).extracting(TestBatches.Entry::offset).containsExactly(0L, 1L, 2L);
        assertThat(appendAsFollower(10, "again", 2).firstOffset()).isEqualTo(10);
        assertThat(log.logEndOffset()).isEqualTo(12);
        assertThat(readAll(log)).extracting(TestBatches.Entry::offset).containsExactly(0L, 1L, 2L, 10L, 11L);
    }

    /**
     * Truncated into a gap, then its start moved up to its end: reopened, it starts and ends there, empty, its epochs
     * gone with its segments, as Kafka's LogLoader leaves a log whose checkpointed start is past its last batch,
     * rather than starting back at that batch's end.
     */
    @Test
    void aLogStartCheckpointedPastTheLastBatchIsWhereTheReopenedLogStartsAndEnds() throws IOException {
        open(LogConfig.defaults());
        appendAsFollower(0, "before", 3);
        log.assignLeaderEpoch(3);
        appendAsFollower(10, "after", 3);
        log.truncateTo(6);
        assertThat(log.deleteRecordsBefore(6)).isEqualTo(6);
        assertThat(log.leaderEpochs()).as("an epoch to lose").containsKey(3);
        log.close();

        log = TestLogs.open(logDir, TP, LogConfig.defaults(), clock, 6, 6, true);

        assertThat(log.logStartOffset()).isEqualTo(6);
        assertThat(log.logEndOffset()).isEqualTo(6);
        assertThat(log.segmentBaseOffsets()).toIterable().containsExactly(6L);
        assertThat(log.leaderEpochs()).isEmpty();
        assertThat(readAll(log)).isEmpty();
        assertThat(appendAsFollower(10, "again", 2).firstOffset()).isEqualTo(10);
        assertThat(readAll(log)).extracting(TestBatches.Entry::offset).containsExactly(10L, 11L);
    }

    /**
     * Led in epoch 5 from offset 3, then another leader was elected before this one appended: a truncation to its log
     * end (or past it) cuts nothing, but the epoch 5 goes, as in Kafka's truncateTo.
     */
    @Test
    void aTruncationAtTheLogEndDropsAnEpochAssignedThereWithoutAnAppend() throws IOException {
        open(LogConfig.defaults());
        appendAsFollower(0, "led", 3);
        log.assignLeaderEpoch(5);
        assertThat(log.leaderEpochs()).containsEntry(5, 3L);

        log.truncateTo(3);

        assertThat(log.leaderEpochs()).doesNotContainKey(5);
        assertThat(log.logEndOffset()).isEqualTo(3);
        log.assignLeaderEpoch(6);
        log.truncateTo(4);
        assertThat(log.leaderEpochs()).doesNotContainKey(6);
        assertThat(log.logEndOffset()).isEqualTo(3);
    }

    private AppendResult appendAsFollower(long baseOffset, String prefix, int records) {
        RecordBatchBuilder builder = new RecordBatchBuilder(TestBatches.ALLOC, CompressionType.NONE, baseOffset, T0);
        for (int i = 0; i < records; i++) {
            builder.append(T0, null, (prefix + "-" + i).getBytes(StandardCharsets.UTF_8), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            return log.appendAsFollower(batch);
        } finally {
            batch.release();
        }
    }

    @Test
    void truncateToRemovesTheBatchHoldingTheOffsetAndEverythingAfter() throws IOException {
        open(small());
        for (int i = 0; i < 40; i++) {
            append(log, "u" + i, 5, T0 + i);
        }
        log.truncateTo(57);
        assertThat(log.logEndOffset()).as("as Kafka's, though the batch 55..59 went whole").isEqualTo(57);
        assertThat(readAll(log)).hasSize(55).last().extracting(TestBatches.Entry::value).isEqualTo("u10-4");
        assertThat(log.maxTimestampAndOffset()).contains(new TimestampAndOffset(T0 + 10, 50));
        assertThat(append(log, "again", 2, T0 + 50).firstOffset()).isEqualTo(57);

        log.truncateTo(0);
        assertThat(log.logEndOffset()).isZero();
        assertThat(log.segmentCount()).isEqualTo(1);
        assertThat(append(log, "fresh", 1, T0).firstOffset()).isZero();
    }
}
