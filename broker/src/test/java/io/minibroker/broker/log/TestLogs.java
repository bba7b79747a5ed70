package io.minibroker.broker.log;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;

/** Opens a log for a test that does not exercise producer expiry. */
public final class TestLogs {
    private TestLogs() {
    }

    /** {@link PartitionLog#open} with producers that never expire as their snapshot loads. */
    public static PartitionLog open(Path logDir, TopicPartition topicPartition, LogConfig config, Clock clock,
                                    long recoveryPoint, long logStartOffset, boolean cleanShutdown) throws IOException {
        return PartitionLog.open(logDir, topicPartition, config, clock, recoveryPoint, logStartOffset, cleanShutdown,
                Long.MAX_VALUE);
    }
}
