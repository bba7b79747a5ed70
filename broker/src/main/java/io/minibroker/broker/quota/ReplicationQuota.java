package io.minibroker.broker.quota;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigKey;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.metrics.ReplicationQuotaMeters;
import io.minibroker.broker.topic.TopicConfig;
import io.minibroker.broker.topic.TopicDeletionListener;
import io.minibroker.broker.topic.TopicMetadata;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One side of KIP-73's replication throttle, as Kafka's ReplicationQuotaManager: the leader's (bytes it sends
 * followers, bounded by {@code leader.replication.throttled.rate}) or the follower's (bytes it fetches, bounded by
 * {@code follower.replication.throttled.rate}), each a rate over {@code replication.quota.window.num} windows of
 * {@code replication.quota.window.size.seconds} on the broker's clock (Kafka's SimpleRate: a first burst is measured
 * over one window, not all but one as a client quota's). Only the throttled partitions' bytes are
 * recorded: those the topic's {@code leader.replication.throttled.replicas} (or {@code follower.}) names with this
 * broker's id. Whether a partition is held back is the caller's decision (Kafka's shouldLeaderThrottle and
 * shouldFollowerThrottle also ask whether the replica is in sync); this answers whether the rate is over its bound.
 */
public final class ReplicationQuota implements TopicDeletionListener {

    private final String throttledReplicasKey;
    private final int brokerId;
    private final Function<String, Optional<Map<String, String>>> topicOverrides;
    private final LongSupplier rate;
    private final LongSupplier clockMs;
    private final int samples;
    private final int windowSeconds;
    /**
     * The bytes recorded against the throttled rate, which it reads at each check (a dynamic change applies at once):
     * Kafka's sensor, made at the first record or check, made anew (empty) after it expired.
     */
    private ThrottledRate recorded;
    /** When the sensor was last recorded into (or made), and whether it exists: guarded by this. */
    private long lastRecordMs;
    private boolean sensorExists;
    /** Where its byte-rate is exported, once the broker's meters are bound; null before. */
    private ReplicationQuotaMeters meters;
    /**
     * Each topic's list as last parsed, with the text it was parsed from: a fetch asks about every partition it
     * reads, and a reassignment's list names every replica of the topic, so it is parsed again only once changed.
     */
    private final Map<String, Parsed> parsed = new ConcurrentHashMap<>();

    private record Parsed(String value, ThrottledReplicas replicas) {
    }

    /**
     * @param throttledReplicasKey the topic config naming the throttled replicas of this side
     * @param topicOverrides       a topic's config overrides, by name
     * @param rate                 the throttled rate in bytes per second ({@link Long#MAX_VALUE}: none)
     */
    public ReplicationQuota(String throttledReplicasKey, int brokerId,
                            Function<String, Optional<Map<String, String>>> topicOverrides, LongSupplier rate,
                            LongSupplier clockMs, int samples, int windowSeconds) {
        this.throttledReplicasKey = throttledReplicasKey;
        this.brokerId = brokerId;
        this.topicOverrides = topicOverrides;
        this.rate = rate;
        this.clockMs = clockMs;
        this.samples = samples;
        this.windowSeconds = windowSeconds;
        this.recorded = new ThrottledRate(rate, clockMs, samples, windowSeconds);
    }

    /** Exports the byte-rate to {@code meters} while the sensor exists. */
    public synchronized void exportTo(ReplicationQuotaMeters meters) {
        this.meters = meters;
        if (sensorExists) {
            meters.register(this::byteRate);
        }
    }

    /** The leader's side: bytes sent to followers, as Kafka's QuotaFactory makes its leader quota. */
    public static ReplicationQuota leader(BrokerConfig config, Function<String, Optional<Map<String, String>>> topics,
                                          LongSupplier clockMs) {
        return of(TopicConfig.LEADER_REPLICATION_THROTTLED_REPLICAS, BrokerConfig.LEADER_REPLICATION_THROTTLED_RATE,
                config, topics, clockMs);
    }

    /** The follower's side: bytes fetched from leaders. */
    public static ReplicationQuota follower(BrokerConfig config,
                                            Function<String, Optional<Map<String, String>>> topics,
                                            LongSupplier clockMs) {
        return of(TopicConfig.FOLLOWER_REPLICATION_THROTTLED_REPLICAS,
                BrokerConfig.FOLLOWER_REPLICATION_THROTTLED_RATE, config, topics, clockMs);
    }

    private static ReplicationQuota of(String throttledReplicasKey, ConfigKey<Long> rateKey, BrokerConfig config,
                                       Function<String, Optional<Map<String, String>>> topics, LongSupplier clockMs) {
        return new ReplicationQuota(throttledReplicasKey, config.get(BrokerConfig.NODE_ID), topics,
                () -> config.get(rateKey), clockMs, config.get(BrokerConfig.REPLICATION_QUOTA_WINDOW_NUM),
                config.get(BrokerConfig.REPLICATION_QUOTA_WINDOW_SIZE_SECONDS));
    }

    /** Whether the topic's throttled-replicas config names {@code partition} with this broker's id, or is "*". */
    public boolean isThrottled(TopicPartition partition) {
        String value = topicOverrides.apply(partition.topic())
                .map(overrides -> overrides.get(throttledReplicasKey)).orElse(null);
        if (value == null || value.isEmpty()) {
            // The usual case: nothing throttled, nothing kept. A list removed since it was parsed is dropped, as
            // Kafka's TopicConfigHandler calls removeThrottle for a topic whose config no longer has the key.
            parsed.remove(partition.topic());
            return false;
        }
        Parsed last = parsed.get(partition.topic());
        if (last == null || !last.value().equals(value)) {
            last = new Parsed(value, ThrottledReplicas.parse(value, brokerId));
            parsed.put(partition.topic(), last);
        }
        return last.replicas().throttles(partition.partition());
    }

    /**
     * Forgets the deleted topics' lists, which nothing asks about again (a name created anew is parsed anew), as
     * Kafka's brokers drop a deleted topic's throttled partitions (its configs leave the image with it, and its
     * TopicConfigHandler then removes the throttle from the ReplicationQuotaManager).
     */
    @Override
    public void onTopicsDeleted(Collection<TopicMetadata> deleted) {
        deleted.forEach(topic -> parsed.remove(topic.name()));
    }

    /**
     * The topics whose lists are kept (parsed and not forgotten): what {@link #onTopicsDeleted} and a removed list
     * must empty.
     */
    public Set<String> keptTopics() {
        return Set.copyOf(parsed.keySet());
    }

    /** Whether the bytes recorded are, as a rate, above the throttled rate now (never when none is set). */
    public synchronized boolean isQuotaExceeded() {
        return sensor().isExceeded();
    }

    /** Kafka's {@code byte-rate} of this side: the throttled partitions' bytes per second now. */
    public synchronized double byteRate() {
        return recorded.byteRate();
    }

    /**
     * Records bytes of throttled partitions sent (leader: every follower fetch answered, 0 too, as Kafka's KafkaApis)
     * or fetched (follower).
     */
    public synchronized void record(long bytes) {
        sensor().record(bytes);
        lastRecordMs = clockMs.getAsLong();
    }

    /**
     * Drops the sensor, and its byte-rate, an hour after its last record, as Kafka's ReplicationQuotaManager makes it
     * with that inactivity expiry; the next record or check makes a new one, empty.
     */
    public synchronized void expireIdle() {
        if (sensorExists && clockMs.getAsLong() - lastRecordMs > RateTable.IDLE_EXPIRY_MS) {
            sensorExists = false;
            recorded = new ThrottledRate(rate, clockMs, samples, windowSeconds);
            if (meters != null) {
                meters.remove();
            }
        }
    }

    /** Kafka's ReplicationQuotaManager.sensor(): the sensor, made (its metric registered) if there is none. */
    private ThrottledRate sensor() {
        if (!sensorExists) {
            sensorExists = true;
            lastRecordMs = clockMs.getAsLong(); // as a new Kafka Sensor's last record time
            if (meters != null) {
                meters.register(this::byteRate);
            }
        }
        return recorded;
    }
}
