package io.minibroker.broker.replica;

import io.minibroker.broker.log.TopicPartition;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The partitions a test told this broker to replicate slowly: each fetch of such a partition is sent only that long
 * after the answer to the previous one came back, so the follower stays alive but behind (the leader's high watermark
 * and acks=all produces wait for it, and a delay above {@code replica.lag.time.max.ms} takes it out of the ISR).
 * The delay is real time: it slows this follower's own thread, which waits on no broker clock.
 */
final class FetchDelays {

    private final Map<TopicPartition, Long> byPartition = new ConcurrentHashMap<>();
    /** Topics slowed whole (every partition, also those not yet followed). */
    private final Map<String, Long> byTopic = new ConcurrentHashMap<>();
    private volatile long allMs;

    /**
     * Delays each fetch of one partition by {@code delay}; {@code partition} -1: the topic; a null topic: every
     * partition. A zero delay lifts what the same arguments set (a null topic: every delay).
     */
    void slow(String topic, int partition, Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a follower's fetch delay cannot be negative: " + delay.toMillis() + " ms");
        }
        long ms = delay.toMillis();
        if (topic == null) {
            allMs = ms;
            if (ms == 0) {
                byPartition.clear();
                byTopic.clear();
            }
        } else if (partition < 0) {
            set(byTopic, topic, ms);
            if (ms == 0) {
                byPartition.keySet().removeIf(p -> p.topic().equals(topic));
            }
        } else {
            set(byPartition, new TopicPartition(topic, partition), ms);
        }
    }

    private static <K> void set(Map<K, Long> delays, K key, long ms) {
        if (ms == 0) {
            delays.remove(key);
        } else {
            delays.put(key, ms);
        }
    }

    /** Whether any delay is set: one look per fetch round, so that an unslowed follower pays nothing more. */
    boolean any() {
        return allMs > 0 || !byTopic.isEmpty() || !byPartition.isEmpty();
    }

    /** The delay before each fetch of this partition: the longest of those that cover it, 0 when none does. */
    long delayMs(TopicPartition partition) {
        return Math.max(allMs, Math.max(byTopic.getOrDefault(partition.topic(), 0L),
                byPartition.getOrDefault(partition, 0L)));
    }
}
