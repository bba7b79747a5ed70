package io.minibroker.broker.metrics;

import io.minibroker.broker.log.LogListener;
import io.minibroker.broker.log.LogManager;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;

/**
 * Per-partition log gauges, Kafka's {@code kafka.log:type=Log} meters: log end offset, log start offset, size
 * in bytes and segment count, tagged with topic and partition. A deleted partition's gauges are removed with
 * it, so a scrape never shows a topic that no longer exists.
 *
 * <p>The logs a broker opens at its start get theirs off the start's path ({@link #registerOnStart}): four
 * Micrometer gauges per partition take about 0.45 s at 10,000 partitions, which would otherwise delay the listeners'
 * binding. Until it is done, a scrape lacks some partitions' gauges; nothing waits for them.
 */
public final class LogMeters implements LogListener {

    private final MeterRegistry registry;
    private final Map<TopicPartition, List<Meter>> meters = new HashMap<>();

    public LogMeters(MeterRegistry registry) {
        this.registry = registry;
    }

    /**
     * Meters the logs {@code manager} opens and deletes from now on, and, in a task given to {@code registering},
     * those it has open already: each of those only if it is still the manager's log of its partition when its turn
     * comes (one deleted meanwhile is skipped, and one deleted after is removed by {@link #logDeleted}, under the
     * same lock).
     */
    public static LogMeters registerOnStart(LogManager manager, MeterRegistry registry, Executor registering) {
        LogMeters meters = new LogMeters(registry);
        List<PartitionLog> open = manager.addListenerForNewLogs(meters);
        registering.execute(() -> {
            for (PartitionLog log : open) {
                meters.logStillOpen(log, manager);
            }
        });
        return meters;
    }

    private synchronized void logStillOpen(PartitionLog log, LogManager manager) {
        if (manager.log(log.topicPartition()).orElse(null) == log) {
            logOpened(log);
        }
    }

    @Override
    public synchronized void logOpened(PartitionLog log) {
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
    public synchronized void logDeleted(TopicPartition tp) {
        List<Meter> removed = meters.remove(tp);
        if (removed != null) {
            removed.forEach(registry::remove);
        }
    }
}
