package io.minibroker.broker.metrics;

import io.minibroker.broker.log.LogListener;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-partition log gauges, Kafka's {@code kafka.log:type=Log} meters: log end offset, log start offset, size
 * in bytes and segment count, tagged with topic and partition. A deleted partition's gauges are removed with
 * it, so a scrape never shows a topic that no longer exists.
 */
public final class LogMeters implements LogListener {

    private final MeterRegistry registry;
    private final Map<TopicPartition, List<Meter>> meters = new ConcurrentHashMap<>();

    public LogMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void logOpened(PartitionLog log) {
        TopicPartition tp = log.topicPartition();
        Tags tags = Tags.of("topic", tp.topic(), "partition", Integer.toString(tp.partition()));
        meters.put(tp, List.of(
                Gauge.builder("kafka.log.log.logendoffset", log, PartitionLog::logEndOffset).tags(tags)
                        .description("The offset the next record appended to the partition will get")
                        .register(registry),
                Gauge.builder("kafka.log.log.logstartoffset", log, PartitionLog::logStartOffset).tags(tags)
                        .description("The partition's first offset still kept").register(registry),
                Gauge.builder("kafka.log.log.size", log, PartitionLog::size).tags(tags)
                        .description("The bytes of the partition's segments").register(registry),
                Gauge.builder("kafka.log.log.numlogsegments", log, PartitionLog::segmentCount).tags(tags)
                        .description("The partition's segment count").register(registry)));
    }

    @Override
    public void logDeleted(TopicPartition tp) {
        List<Meter> removed = meters.remove(tp);
        if (removed != null) {
            removed.forEach(registry::remove);
        }
    }
}
