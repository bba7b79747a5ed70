package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.protocol.error.Errors;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Kafka's {@code kafka.server:type=BrokerTopicMetrics} meters, named so that Prometheus shows them as Kafka's JMX
 * exporter does ({@code kafka.server.brokertopicmetrics.messagesin} is {@code
 * kafka_server_brokertopicmetrics_messagesin_total}, Kafka's MessagesInPerSec). Per topic:
 * <pre>
 *   messagesin             MessagesInPerSec: records appended by producers
 *   bytesin                BytesInPerSec: their batches' bytes, not socket bytes
 *   bytesout               BytesOutPerSec: record bytes fetched by consumers (not by followers)
 *   totalproducerequests   TotalProduceRequestsPerSec: partitions of produce requests that reached a log
 *   failedproducerequests  FailedProduceRequestsPerSec: those refused by an error {@link #failsProduce} counts
 *   totalfetchrequests     TotalFetchRequestsPerSec: partitions of fetch requests (consumers' and followers')
 *                          that reached a log
 *   failedfetchrequests    FailedFetchRequestsPerSec: those whose read failed unexpectedly
 * </pre>
 * and for all topics only, as in Kafka: {@code replicationbytesin} (ReplicationBytesInPerSec, the batches a
 * follower appended from its leaders) and {@code replicationbytesout} (ReplicationBytesOutPerSec, the record bytes
 * followers fetched from here).
 *
 * <p>"Requests" count partitions, as Kafka's ReplicaManager marks them: a produce of three partitions is three. Kafka
 * also has an all-topics series (no topic tag) of each per-topic meter, which Prometheus (and so Micrometer) cannot
 * hold under the same name; {@code sum without (topic)} gives it. A topic's counters are made at its first produce
 * or fetch; after that counting allocates nothing.
 */
public final class BrokerTopicMetrics {

    private final MeterRegistry registry;
    private final Map<String, TopicMeters> topics = new ConcurrentHashMap<>();
    private final Counter replicationBytesIn;
    private final Counter replicationBytesOut;

    public BrokerTopicMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.replicationBytesIn = Counter.builder("kafka.server.brokertopicmetrics.replicationbytesin")
                .description("Bytes of the record batches followers here appended from their leaders")
                .register(registry);
        this.replicationBytesOut = Counter.builder("kafka.server.brokertopicmetrics.replicationbytesout")
                .description("Bytes of the record batches followers fetched from here").register(registry);
    }

    /** The meters of one topic, for a handler that counts several things of it in one request. */
    public TopicMeters topic(String topic) {
        TopicMeters meters = topics.get(topic);
        return meters != null ? meters : topics.computeIfAbsent(topic, this::register);
    }

    /** A follower appended {@code bytes} bytes of batches fetched from its leader. */
    public void replicatedIn(int bytes) {
        replicationBytesIn.increment(bytes);
    }

    /** A follower's fetch was answered {@code bytes} bytes of record batches. */
    public void replicatedOut(int bytes) {
        replicationBytesOut.increment(bytes);
    }

    /**
     * Whether a partition's produce refused with this error counts as failed. Kafka's ReplicaManager leaves out
     * the errors it expects in normal operation (a client's stale metadata, an oversized or corrupt batch, a disk
     * that went offline) and counts every other: validation errors, NOT_ENOUGH_REPLICAS, the producer-state errors.
     */
    public static boolean failsProduce(Errors error) {
        return switch (error) {
            case NONE, UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_ID, NOT_LEADER_OR_FOLLOWER, MESSAGE_TOO_LARGE,
                 RECORD_LIST_TOO_LARGE, CORRUPT_MESSAGE, KAFKA_STORAGE_ERROR -> false;
            default -> true;
        };
    }

    private TopicMeters register(String topic) {
        return new TopicMeters(
                counter("messagesin", topic, "Records appended by producers"),
                counter("bytesin", topic, "Bytes of the record batches appended by producers"),
                counter("bytesout", topic, "Bytes of the record batches fetched by consumers"),
                counter("totalproducerequests", topic, "Partitions of produce requests that reached a log"),
                counter("failedproducerequests", topic, "Partitions of produce requests refused by an error"),
                counter("totalfetchrequests", topic, "Partitions of fetch requests that reached a log"),
                counter("failedfetchrequests", topic, "Partitions of fetch requests whose read failed"));
    }

    private Counter counter(String name, String topic, String description) {
        return Counter.builder("kafka.server.brokertopicmetrics." + name).tag("topic", topic)
                .description(description).register(registry);
    }

    /** One topic's counters. */
    public record TopicMeters(Counter messagesIn, Counter bytesIn, Counter bytesOut, Counter totalProduceRequests,
                              Counter failedProduceRequests, Counter totalFetchRequests,
                              Counter failedFetchRequests) {

        /** A produce appended {@code records} records in batches of {@code bytes} bytes to a partition. */
        public void produced(long records, int bytes) {
            messagesIn.increment(records);
            bytesIn.increment(bytes);
        }
    }
}
