package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka's per-topic {@code kafka.server:type=BrokerTopicMetrics} meters, named so that Prometheus shows them as
 * Kafka's JMX exporter does:
 * <pre>
 *   kafka.server.brokertopicmetrics.messagesin   counter  topic   MessagesInPerSec: records appended by producers
 *   kafka.server.brokertopicmetrics.bytesin      counter  topic   BytesInPerSec: their batches' bytes, not socket bytes
 *   kafka.server.brokertopicmetrics.bytesout     counter  topic   BytesOutPerSec: record bytes fetched by consumers
 * </pre>
 * As in Kafka, a follower's fetches are not counted in BytesOutPerSec (Kafka counts them as ReplicationBytesOutPerSec).
 * Only the per-topic series: Kafka also has one without the topic tag for all topics, which Prometheus (and so
 * Micrometer) cannot hold under the same name; {@code sum without (topic)} gives it. A topic's counters are made
 * at its first produce or fetch; after that counting allocates nothing.
 */
public final class BrokerTopicMetrics {

    private final MeterRegistry registry;
    private final Map<String, TopicMeters> topics = new ConcurrentHashMap<>();

    public BrokerTopicMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    /** A produce appended {@code records} records in batches of {@code bytes} bytes to a partition of the topic. */
    public void produced(String topic, long records, int bytes) {
        TopicMeters meters = meters(topic);
        meters.messagesIn.increment(records);
        meters.bytesIn.increment(bytes);
    }

    /** A consumer's fetch answered {@code bytes} bytes of record batches of a partition of the topic. */
    public void fetched(String topic, int bytes) {
        meters(topic).bytesOut.increment(bytes);
    }

    private TopicMeters meters(String topic) {
        TopicMeters meters = topics.get(topic);
        return meters != null ? meters : topics.computeIfAbsent(topic, this::register);
    }

    private TopicMeters register(String topic) {
        return new TopicMeters(
                Counter.builder("kafka.server.brokertopicmetrics.messagesin").tag("topic", topic)
                        .description("Records appended by producers").register(registry),
                Counter.builder("kafka.server.brokertopicmetrics.bytesin").tag("topic", topic)
                        .description("Bytes of the record batches appended by producers").register(registry),
                Counter.builder("kafka.server.brokertopicmetrics.bytesout").tag("topic", topic)
                        .description("Bytes of the record batches fetched by consumers").register(registry));
    }

    private record TopicMeters(Counter messagesIn, Counter bytesIn, Counter bytesOut) {
    }
}
