package io.minibroker.broker.replica;

import io.minibroker.broker.log.LeaderEpochCache;
import io.minibroker.broker.log.LogConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TestLogs;
import io.minibroker.broker.log.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where a follower cuts its log on a DivergingEpoch answer that names no epoch it can match, as Kafka's
 * AbstractFetcherThread: a leader without epochs (its answer's epoch undefined, its end offset known) or an epoch below
 * all of ours is cut at the leader's end, never past our own end; an answer without an end offset cuts nothing. The
 * follower's log has five records of epoch 0 and a high watermark of 1, so a cut at its high watermark shows.
 */
class DivergenceTruncationTest {

    private static final int LEADER = 2;

    @TempDir
    Path logDir;
    private PartitionLog log;

    @BeforeEach
    void fiveRecordsOneReplicated() throws IOException {
        log = TestLogs.open(logDir, new TopicPartition("diverged", 0), LogConfig.defaults(),
                Clock.fixed(Instant.EPOCH, ZoneOffset.UTC), 0, 0, true);
        TestLogs.appendBatchOf(log, 5);
        log.setReplicatedHighWatermark(1);
    }

    @AfterEach
    void closeLog() throws IOException {
        log.close();
    }

    @Test
    void aLeaderWithoutEpochsHasItsEndKeptNotOurHighWatermark() {
        ReplicaFetcher.truncateToDivergence(log, LEADER, LeaderEpochCache.UNDEFINED_EPOCH, 3);

        assertThat(log.logEndOffset()).isEqualTo(3);
    }

    @Test
    void aLeaderEndingPastOursCutsNothing() {
        ReplicaFetcher.truncateToDivergence(log, LEADER, LeaderEpochCache.UNDEFINED_EPOCH, 9);

        assertThat(log.logEndOffset()).isEqualTo(5);
    }

    @Test
    void anAnswerWithoutAnEndOffsetCutsNothing() {
        ReplicaFetcher.truncateToDivergence(log, LEADER, 0, LeaderEpochCache.UNDEFINED_OFFSET);

        assertThat(log.logEndOffset()).isEqualTo(5);
    }
}
