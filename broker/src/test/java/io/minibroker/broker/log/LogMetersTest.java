package io.minibroker.broker.log;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.metrics.LogMeters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LogMetersTest {

    @TempDir
    Path dir;

    @Test
    void everyLogHasGaugesThatFollowItAndGoWhenItIsDeleted() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (LogManager logs = TestLogs.manager(List.of(dir), topic -> LogConfig.defaults(), Clock.systemUTC())) {
            logs.startup();
            TopicPartition before = new TopicPartition("before", 0);
            TestBatches.append(logs.getOrCreateLog(before), "b", 2, 1_000L);

            logs.addListener(new LogMeters(registry)); // a log opened before the listener gets meters too
            TopicPartition after = new TopicPartition("after", 3);
            PartitionLog afterLog = logs.getOrCreateLog(after);
            TestBatches.append(afterLog, "a", 5, 1_000L);

            assertThat(gauge(registry, "kafka.log.log.logendoffset", before).value()).isEqualTo(2.0);
            assertThat(gauge(registry, "kafka.log.log.logendoffset", after).value()).isEqualTo(5.0);
            assertThat(gauge(registry, "kafka.log.log.logstartoffset", after).value()).isZero();
            assertThat(gauge(registry, "kafka.log.log.size", after).value()).isEqualTo((double) afterLog.size())
                    .isPositive();
            assertThat(gauge(registry, "kafka.log.log.numlogsegments", after).value()).isEqualTo(1.0);

            logs.deleteLog(after);

            assertThat(registry.find("kafka.log.log.logendoffset").tag("topic", "after").gauges()).isEmpty();
            assertThat(registry.find("kafka.log.log.logendoffset").tag("topic", "before").gauges()).hasSize(1);
        }
    }

    @Test
    void theLogsOpenAtTheStartGetTheirGaugesInTheRegisteringTaskUnlessDeletedMeanwhile() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (LogManager logs = TestLogs.manager(List.of(dir), topic -> LogConfig.defaults(), Clock.systemUTC())) {
            logs.startup();
            TopicPartition kept = new TopicPartition("kept", 0);
            TopicPartition gone = new TopicPartition("gone", 0);
            TestBatches.append(logs.getOrCreateLog(kept), "k", 3, 1_000L);
            logs.getOrCreateLog(gone);
            List<Runnable> registering = new ArrayList<>();

            LogMeters.registerOnStart(logs, registry, registering::add);
            TopicPartition created = new TopicPartition("created", 0);
            logs.getOrCreateLog(created);
            assertThat(gauge(registry, "kafka.log.log.logendoffset", created).value()).as("a new log: at once")
                    .isZero();
            assertThat(registry.find("kafka.log.log.logendoffset").tag("topic", "kept").gauges()).isEmpty();
            logs.deleteLog(gone);

            registering.forEach(Runnable::run);
            assertThat(gauge(registry, "kafka.log.log.logendoffset", kept).value()).isEqualTo(3.0);
            assertThat(registry.find("kafka.log.log.logendoffset").tag("topic", "gone").gauges())
                    .as("deleted before its turn: never metered").isEmpty();
        }
    }

    private static Gauge gauge(SimpleMeterRegistry registry, String name, TopicPartition tp) {
        return registry.get(name).tag("topic", tp.topic()).tag("partition", Integer.toString(tp.partition())).gauge();
    }
}
