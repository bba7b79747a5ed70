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
 *   kafka.server.alterlogdirsreplication.byte.rate  gauge  AlterLogDirsReplication byte-rate (log bytes copied by
 *                                                   moves between log directories, B/s)
 * </pre>
 * Kafka's SimpleRate over {@code replication.quota.window.num} windows of {@code replication.quota.window.size.seconds}
 * of the throttled partitions' bytes only (the alter-log-dirs one over {@code alter.log.dirs.replication.quota.window.*}
 * of every move's bytes). The first two are registered with the replica manager's meters (cluster brokers), the
 * third by the broker, which moves logs on one node too. Kafka's sensor appears at its first bytes and is dropped
 * after an hour without.
 */
public final class ReplicationQuotaMeters {

    private ReplicationQuotaMeters() {
    }

    /**
     * @param replicationType Kafka's QuotaType name: {@code LeaderReplication}, {@code FollowerReplication} or
     *                        {@code AlterLogDirsReplication}
     */
    public static void bind(MeterRegistry registry, String replicationType, DoubleSupplier byteRate) {
        Gauge.builder(ClientQuotaMeters.kafkaServerMeter(replicationType, "byte-rate"), byteRate,
                        DoubleSupplier::getAsDouble)
                .strongReference(true).description("Tracking byte-rate for " + replicationType).register(registry);
    }
}
