package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.DoubleSupplier;

/**
 * One side of the replication throttles' metrics (KIP-73), as Kafka's ReplicationQuotaManager names them, exported
 * under the Prometheus names Kafka's JMX exporter gives them:
 * <pre>
 *   kafka.server.leaderreplication.byte.rate    gauge  LeaderReplication byte-rate (throttled bytes sent to followers, B/s)
 *   kafka.server.followerreplication.byte.rate  gauge  FollowerReplication byte-rate (throttled bytes fetched, B/s)
 *   kafka.server.alterlogdirsreplication.byte.rate  gauge  AlterLogDirsReplication byte-rate (log bytes copied by
 *                                                   moves between log directories, B/s)
 * </pre>
 * Kafka's SimpleRate over {@code replication.quota.window.num} windows of {@code replication.quota.window.size.seconds}
 * of the throttled partitions' bytes only (the alter-log-dirs one over {@code alter.log.dirs.replication.quota.window.*}
 * of every move's bytes). The replication ones are registered and removed as the quota's sensor comes and goes, as
 * Kafka's metric lives with its sensor; the alter-log-dirs one is registered when the broker starts (Kafka's sensor
 * appears at a move's first bytes and is dropped after an hour without: a difference of presence, not of value).
 */
public final class ReplicationQuotaMeters {

    private final MeterRegistry registry;
    private final String name;
    private final String description;
    private Meter byteRate;

    /**
     * @param replicationType Kafka's QuotaType name: {@code LeaderReplication}, {@code FollowerReplication} or
     *                        {@code AlterLogDirsReplication}
     */
    public ReplicationQuotaMeters(MeterRegistry registry, String replicationType) {
        this.registry = registry;
        this.name = ClientQuotaMeters.kafkaServerMeter(replicationType, "byte-rate");
        this.description = "Tracking byte-rate for " + replicationType;
    }

    /** Registers the byte-rate, read from {@code rate}, unless it is registered already. */
    public synchronized void register(DoubleSupplier rate) {
        if (byteRate == null) {
            byteRate = Gauge.builder(name, rate, DoubleSupplier::getAsDouble).strongReference(true)
                    .description(description).register(registry);
        }
    }

    public synchronized void remove() {
        if (byteRate != null) {
            registry.remove(byteRate);
            byteRate = null;
        }
    }
}
