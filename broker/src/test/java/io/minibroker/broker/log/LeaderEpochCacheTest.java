package io.minibroker.broker.log;

import static io.minibroker.broker.log.TestBatches.batch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.broker.log.LeaderEpochCache.EpochEnd;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LeaderEpochCacheTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    private String checkpoint() throws IOException {
        return Files.readString(dir.resolve(LeaderEpochCache.FILE_NAME), StandardCharsets.UTF_8);
    }

    @Test
    void writesKafkasCheckpointFormatAndReadsItBack() throws IOException {
        LeaderEpochCache cache = LeaderEpochCache.empty(dir);
        assertThat(cache.assign(0, 0)).isTrue();
        assertThat(cache.assign(0, 5)).isFalse(); // the same epoch's later batches change nothing
        assertThat(cache.assign(2, 10)).isTrue();
        assertThat(cache.assign(1, 12)).isFalse(); // older than the latest
        assertThat(dir.resolve(LeaderEpochCache.FILE_NAME)).as("changes stay in memory until flushed")
                .doesNotExist();
        assertThat(cache.flushPending()).isTrue();

        cache.flush();
        assertThat(cache.flushPending()).isFalse();
        assertThat(checkpoint()).isEqualTo("0\n2\n0 0\n2 10\n");
        assertThat(LeaderEpochCache.read(dir).entries()).containsExactly(Map.entry(0, 0L), Map.entry(2, 10L));
    }

    @Test
    void answersTheEndOfAnEpochAsKafkaDoes() throws IOException {
        LeaderEpochCache cache = LeaderEpochCache.empty(dir);
        cache.assign(1, 0);
        cache.assign(3, 10);
        cache.assign(5, 20);

        assertThat(cache.endOffsetFor(5, 27)).isEqualTo(new EpochEnd(5, 27)); // the latest ends at the log end
        assertThat(cache.endOffsetFor(3, 27)).isEqualTo(new EpochEnd(3, 20));
        assertThat(cache.endOffsetFor(4, 27)).isEqualTo(new EpochEnd(3, 20)); // unknown: the floor epoch's end
        assertThat(cache.endOffsetFor(0, 27)).isEqualTo(new EpochEnd(0, 0)); // older than all
        assertThat(cache.endOffsetFor(6, 27)).isEqualTo(new EpochEnd(-1, -1)); // newer than all
        assertThat(cache.endOffsetFor(-1, 27)).isEqualTo(new EpochEnd(-1, -1));
        assertThat(LeaderEpochCache.empty(dir).endOffsetFor(0, 0)).isEqualTo(new EpochEnd(-1, -1));
    }

    @Test
    void truncatesFromTheEndAndFromTheStart() throws IOException {
        LeaderEpochCache cache = LeaderEpochCache.empty(dir);
        cache.assign(0, 0);
        cache.assign(1, 10);
        cache.assign(2, 20);
        cache.assign(3, 30);

        cache.truncateFromEnd(20); // entries at or after 20 go
        assertThat(cache.entries()).containsExactly(Map.entry(0, 0L), Map.entry(1, 10L));
        cache.truncateFromStart(15); // the epoch holding 15 now starts there
        assertThat(cache.entries()).containsExactly(Map.entry(1, 15L));
        cache.flush();
        assertThat(checkpoint()).isEqualTo("0\n1\n1 15\n");
        cache.clear();
        cache.flush();
        assertThat(checkpoint()).isEqualTo("0\n0\n");
    }

    @Test
    void refusesAMalformedCheckpoint() throws IOException {
        Files.writeString(dir.resolve(LeaderEpochCache.FILE_NAME), "0\n2\n0 0\n");
        assertThatThrownBy(() -> LeaderEpochCache.read(dir)).isInstanceOf(IOException.class);
        Files.writeString(dir.resolve(LeaderEpochCache.FILE_NAME), "0\n2\n3 0\n1 5\n");
        assertThatThrownBy(() -> LeaderEpochCache.read(dir)).isInstanceOf(IOException.class);
    }

    private static PartitionLog openLog(Path logDir) throws IOException {
        return TestLogs.open(logDir, TP, LogConfig.defaults(), new MutableClock(T0), 0, 0, true);
    }

    private static void append(PartitionLog log, int epoch, int records) {
        ByteBuf batch = batch("e" + epoch, records, T0);
        try {
            log.append(batch, epoch);
        } finally {
            batch.release();
        }
    }

    /** A leader's append on an event loop: the checkpoint of a new epoch is left to the caller. */
    private static void appendUnflushed(PartitionLog log, int epoch, int records) {
        ByteBuf batch = batch("e" + epoch, records, T0);
        try {
            log.appendUnflushed(batch, epoch);
        } finally {
            batch.release();
        }
    }

    @Test
    void aLogKeepsItsEpochsThroughAppendsTruncationAndRestart() throws IOException {
        try (PartitionLog log = openLog(dir)) {
            append(log, 0, 3);
            append(log, 0, 2);
            append(log, 4, 3);
            append(log, 6, 2);
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(0, 0L), Map.entry(4, 5L), Map.entry(6, 8L));
            assertThat(log.endOffsetForEpoch(4)).isEqualTo(new EpochEnd(4, 8));
            log.truncateTo(8);
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(0, 0L), Map.entry(4, 5L));
            assertThat(log.endOffsetForEpoch(4)).isEqualTo(new EpochEnd(4, 8));
        }
        Path partitionDir = dir.resolve(TP.dirName());
        assertThat(Files.readString(partitionDir.resolve(LeaderEpochCache.FILE_NAME))).isEqualTo("0\n2\n0 0\n4 5\n");
        try (PartitionLog log = openLog(dir)) {
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(0, 0L), Map.entry(4, 5L));
            log.deleteRecordsBefore(6);
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(4, 6L));
        }
    }

    @Test
    void aNewLeaderStartsItsEpochAtTheLogEndBeforeAnyAppend() throws IOException {
        try (PartitionLog log = openLog(dir)) {
            append(log, 0, 5);
            log.assignLeaderEpoch(2);
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(0, 0L), Map.entry(2, 5L));
            assertThat(log.endOffsetForEpoch(0)).isEqualTo(new EpochEnd(0, 5));
            append(log, 2, 1);
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(0, 0L), Map.entry(2, 5L));
        }
    }

    /**
     * A single node's leadership: the epoch is answered at once but not written, so opening many partitions costs no
     * checkpoint write each; the epoch's first batch makes it pending, and the caller has it written before it
     * acknowledges the batch. Closed without a batch, the file stays empty, and the next start assigns it again.
     */
    @Test
    void anEpochAssignedInMemoryIsAnsweredAtOnceAndWrittenWithItsFirstBatch() throws IOException {
        Path file = dir.resolve(TP.dirName()).resolve(LeaderEpochCache.FILE_NAME);
        try (PartitionLog log = openLog(dir)) {
            log.assignLeaderEpochInMemory(0);
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(0, 0L));
            assertThat(log.latestEpoch()).isZero();
            assertThat(log.epochForOffset(0)).isZero();
            assertThat(log.endOffsetForEpoch(0)).isEqualTo(new EpochEnd(0, 0));
            assertThat(log.leaderEpochCheckpointPending()).as("nothing to write for the epoch alone").isFalse();
        }
        assertThat(Files.readString(file)).as("a clean close writes nothing either").isEmpty();
        try (PartitionLog log = openLog(dir)) {
            assertThat(log.leaderEpochs()).isEmpty();
            log.assignLeaderEpochInMemory(0);
            appendUnflushed(log, 0, 2);
            assertThat(log.leaderEpochCheckpointPending()).as("the first batch of the epoch").isTrue();
            log.writeLeaderEpochCheckpoint();
            assertThat(Files.readString(file)).isEqualTo("0\n1\n0 0\n");
            append(log, 0, 1);
            assertThat(log.leaderEpochCheckpointPending()).as("a later batch of it").isFalse();
        }
    }

    /**
     * A crash after the epoch was assigned in memory and a batch of it appended, its checkpoint not yet written: the
     * epoch is read back from the batch, as any epoch above the recovery point. Without the batch, nothing of the
     * epoch is lost that a restart would not drop anyway (Kafka's LogLoader cuts an entry at the log end).
     */
    @Test
    void aCrashBeforeTheFirstBatchOfAnEpochAssignedInMemoryWasCheckpointedLosesNothing() throws IOException {
        Path file = dir.resolve(TP.dirName()).resolve(LeaderEpochCache.FILE_NAME);
        PartitionLog crashed = openLog(dir);
        crashed.assignLeaderEpochInMemory(0);
        appendUnflushed(crashed, 0, 3);
        assertThat(Files.readString(file)).isEmpty();

        try (PartitionLog recovered = TestLogs.open(dir, TP, LogConfig.defaults(), new MutableClock(T0),
                crashed.recoveryPoint(), 0, false)) {
            assertThat(recovered.leaderEpochs()).containsExactly(Map.entry(0, 0L));
        }
        crashed.close();
    }

    /** A truncation at the log end drops an epoch assigned in memory there, as one assigned and written. */
    @Test
    void aTruncationDropsAnEpochAssignedInMemoryAtTheLogEnd() throws IOException {
        LeaderEpochCache cache = LeaderEpochCache.empty(dir);
        cache.assign(0, 0);
        cache.flush();
        cache.assignInMemory(2, 5);
        assertThat(cache.flushPending()).isFalse();
        cache.truncateFromEnd(5);
        assertThat(cache.entries()).containsExactly(Map.entry(0, 0L));
        assertThat(cache.assign(2, 5)).as("a batch of the dropped epoch starts it anew").isTrue();
        assertThat(cache.entries()).containsExactly(Map.entry(0, 0L), Map.entry(2, 5L));
    }

    @Test
    void aNewLogsCheckpointIsCreatedEmptyAsKafkasAndReadsAsNoEpochs() throws IOException {
        Path file = dir.resolve(TP.dirName()).resolve(LeaderEpochCache.FILE_NAME);
        try (PartitionLog log = openLog(dir)) {
            // Created, not written whole: no temporary file fsynced and renamed, no directory fsync.
            assertThat(Files.readString(file)).isEmpty();
            assertThat(log.leaderEpochCheckpointPending()).as("nothing to write for no epoch").isFalse();
        }
        assertThat(LeaderEpochCache.read(dir.resolve(TP.dirName())).entries()).isEmpty();
        try (PartitionLog log = openLog(dir)) {
            assertThat(log.leaderEpochs()).isEmpty();
            append(log, 2, 1);
        }
        assertThat(Files.readString(file)).isEqualTo("0\n1\n2 0\n");
    }

    @Test
    void aMissingOrCorruptCheckpointIsRebuiltFromTheLog() throws IOException {
        try (PartitionLog log = openLog(dir)) {
            append(log, 1, 2);
            append(log, 3, 2);
            append(log, 3, 1);
        }
        Path file = dir.resolve(TP.dirName()).resolve(LeaderEpochCache.FILE_NAME);
        Files.delete(file);
        try (PartitionLog log = openLog(dir)) {
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(1, 0L), Map.entry(3, 2L));
        }
        Files.writeString(file, "garbage\n");
        try (PartitionLog log = openLog(dir)) {
            assertThat(log.leaderEpochs()).containsExactly(Map.entry(1, 0L), Map.entry(3, 2L));
        }
        assertThat(Files.readString(file)).isEqualTo("0\n2\n1 0\n3 2\n");
    }

    @Test
    void aLeadersAppendLeavesTheCheckpointToItsCallerAndAFlushWritesItBeforeTheRecoveryPointMoves()
            throws IOException {
        Path file = dir.resolve(TP.dirName()).resolve(LeaderEpochCache.FILE_NAME);
        try (PartitionLog log = openLog(dir)) {
            appendUnflushed(log, 3, 2);
            assertThat(log.leaderEpochCheckpointPending()).isTrue();
            assertThat(Files.readString(file)).as("as the log was created").isEmpty();

            log.flush();
            assertThat(Files.readString(file)).isEqualTo("0\n1\n3 0\n");
            assertThat(log.leaderEpochCheckpointPending()).isFalse();
            assertThat(log.recoveryPoint()).isEqualTo(2);
        }
    }

    @Test
    void anEpochACrashKeptOutOfTheCheckpointIsReadBackFromTheBatchesAboveTheRecoveryPoint() throws IOException {
        PartitionLog crashed = openLog(dir);
        append(crashed, 1, 2); // checkpointed: the test's append waits on the disk
        crashed.flush();
        appendUnflushed(crashed, 4, 3); // its epoch never reaches the checkpoint: the broker "crashes"
        Path file = dir.resolve(TP.dirName()).resolve(LeaderEpochCache.FILE_NAME);
        assertThat(Files.readString(file)).isEqualTo("0\n1\n1 0\n");

        try (PartitionLog recovered = TestLogs.open(dir, TP, LogConfig.defaults(), new MutableClock(T0),
                crashed.recoveryPoint(), 0, false)) {
            assertThat(recovered.leaderEpochs()).containsExactly(Map.entry(1, 0L), Map.entry(4, 2L));
            assertThat(Files.readString(file)).isEqualTo("0\n2\n1 0\n4 2\n");
        }
        crashed.close();
    }

    @Test
    void aFollowerTakesTheEpochsOfTheBatchesItAppends() throws IOException {
        try (PartitionLog leader = openLog(dir.resolve("a")); PartitionLog follower = openLog(dir.resolve("b"))) {
            append(leader, 2, 3);
            append(leader, 7, 1);
            LogReadResult read = leader.read(0, 1 << 20, true, leader.logEndOffset());
            ByteBuf fetched = read.readInto(TestBatches.ALLOC);
            try {
                follower.appendAsFollower(fetched);
            } finally {
                fetched.release();
            }
            assertThat(follower.leaderEpochs()).containsExactly(Map.entry(2, 0L), Map.entry(7, 3L));
            assertThat(follower.latestEpoch()).isEqualTo(7);
        }
    }
}
