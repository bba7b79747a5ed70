package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.DoubleSupplier;

/**
 * The replication throttles' metrics (KIP-73), as Kafka's ReplicationQuotaManager names them, exported under the
 * Prometheus names Kafka's JMX exporter gives them:
 * <pre>
 *   kafka.server.leaderreplication.byte.rate    gauge  LeaderReplication byte-rate (throttled bytes sent to followers, B/s)
 *   kafka.server.followerreplication.byte.rate  gauge  FollowerReplication byte-rate (throttled bytes fetched, B/s)
 * </pre>
 * Kafka's SimpleRate over {@code replication.quota.window.num} windows of {@code replication.quota.window.size.seconds}
 * of the throttled partitions' bytes only. Registered with the replica manager's meters; Kafka's sensor appears at
 * the first throttled partition's fetch and is dropped after an hour without throttled bytes.
 */
public final class ReplicationQuotaMeters {

    private ReplicationQuotaMeters() {
    }

    /** @param replicationType Kafka's QuotaType name: {@code LeaderReplication} or {@code FollowerReplication} */
    public static void bind(MeterRegistry registry, String replicationType, DoubleSupplier byteRate) {
        Gauge.builder(ClientQuotaMeters.kafkaServerMeter(replicationType, "byte-rate"), byteRate,
                        DoubleSupplier::getAsDouble)
                .strongReference(true).description("Tracking byte-rate for " + replicationType).register(registry);
    }
}
