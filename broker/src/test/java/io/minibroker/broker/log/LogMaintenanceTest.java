package io.minibroker.broker.log;

import io.minibroker.broker.time.BrokerClock;
import static io.minibroker.broker.log.TestBatches.append;
import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.purgatory.time.ManualClock;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogMaintenanceTest {

    /** Kafka's "never" for the scheduler's intervals: only the roll can have flushed. */
    private static final long NEVER = Long.MAX_VALUE;
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path dir;

    @Test
    void retentionWaitsUntilTheLogsConfigsAreKnown() throws Exception {
        ManualClock manualClock = new ManualClock();
        BrokerClock clock = BrokerClock.manual(manualClock);
        LogConfig config = LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(200).withRetention(1000, -1);
        LogManager manager = TestLogs.manager(List.of(dir), topic -> config, clock.wallClock());
        manager.startup();
        AtomicBoolean known = new AtomicBoolean();
        try (LogMaintenance maintenance = new LogMaintenance(manager, clock, 5000, NEVER, NEVER, known::get)) {
            PartitionLog log = manager.getOrCreateLog(new TopicPartition("kept", 0));
            for (int i = 0; log.segmentCount() < 3; i++) {
                append(log, "record-" + i, 2, clock.wallClockMs());
            }
            int segments = log.segmentCount();

            clock.advance(10_000); // two retention checks, every segment past retention.ms
            assertThat(log.segmentCount()).as("a cluster broker before its first image").isEqualTo(segments);

            known.set(true);
            clock.advance(5000);
            assertThat(log.segmentCount()).as("the next check deletes").isLessThan(segments);
        } finally {
            manager.close();
        }
    }

    @Test
    void aRolledSegmentIsFlushedRightAfterTheRollNotAtTheNextCheckpoint() throws Exception {
        LogConfig config = LogConfig.defaults().withSegmentBytes(2048).withIndexIntervalBytes(200);
        LogManager manager = TestLogs.manager(List.of(dir), topic -> config, new MutableClock(T0));
        manager.startup();
        try {
            PartitionLog log;
            try (LogMaintenance maintenance = new LogMaintenance(manager, BrokerClock.system(), NEVER, NEVER, NEVER,
                    () -> true)) {
                manager.addListener(maintenance);
                log = manager.getOrCreateLog(new TopicPartition("rolled", 0));
                for (int i = 0; log.segmentCount() < 2; i++) { // until the append that rolls
                    append(log, "record-" + i, 2, T0 + i);
                }
            } // closing the maintenance waits for its thread to run what is queued: the flush the roll asked for
            long end = log.logEndOffset(); // nothing else appends: the flush after the roll reaches it
            assertThat(log.recoveryPoint()).as("the finished segment is on disk and recovery starts after it")
                    .isGreaterThanOrEqualTo(end);
        } finally {
            manager.close();
        }
    }
}
