package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.function.Function;

/** Opens logs for a test that does not exercise producer expiry, and appends to them from other packages' tests. */
public final class TestLogs {
    private TestLogs() {
    }

    /**
     * {@link PartitionLog#open} with producers that never expire as their snapshot loads, whose dropped files are
     * deleted at once.
     */
    public static PartitionLog open(Path logDir, TopicPartition topicPartition, LogConfig config, Clock clock,
                                    long recoveryPoint, long logStartOffset, boolean cleanShutdown) throws IOException {
        return PartitionLog.open(logDir, topicPartition, config, clock, recoveryPoint, logStartOffset, cleanShutdown,
                Long.MAX_VALUE, FileDeletions.AT_ONCE);
    }

    /**
     * A {@link LogManager} with Kafka's default number of recovery threads per directory, whose logs load their
     * producer snapshots with producers that never expire.
     */
    public static LogManager manager(List<Path> logDirs, Function<String, LogConfig> topicConfigs, Clock clock) {
        return new LogManager(logDirs, topicConfigs, clock, LogManager.DEFAULT_RECOVERY_THREADS_PER_DATA_DIR,
                Long.MAX_VALUE, () -> LogConfig.DEFAULT_FILE_DELETE_DELAY_MS);
    }

    /** Appends one producer batch of records valued {@code value-0, value-1, ...} at timestamp 0, and releases it. */
    public static AppendResult appendBatchOf(PartitionLog log, int records) {
        return appendBatchAt(log, records, 0);
    }

    /** The same, every record of the batch stamped {@code timestamp}. */
    public static AppendResult appendBatchAt(PartitionLog log, int records, long timestamp) {
        return TestBatches.append(log, "value", records, timestamp);
    }
}
