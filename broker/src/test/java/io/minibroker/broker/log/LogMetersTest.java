package io.minibroker.broker.log;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.metrics.LogMeters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LogMetersTest {

    @TempDir
    Path dir;

    @Test
    void everyLogHasGaugesThatFollowItAndGoWhenItIsDeleted() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (LogManager logs = new LogManager(List.of(dir), topic -> LogConfig.defaults(), Clock.systemUTC())) {
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

    private static Gauge gauge(SimpleMeterRegistry registry, String name, TopicPartition tp) {
        return registry.get(name).tag("topic", tp.topic()).tag("partition", Integer.toString(tp.partition())).gauge();
    }
}
