package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * Kafka's {@code kafka.server:type=ReplicaManager} meters, named so that Prometheus shows them as Kafka's JMX
 * exporter does ({@code kafka_server_replicamanager_underreplicatedpartitions}, the alerting staple):
 * <pre>
 *   kafka.server.replicamanager.partitioncount             gauge    partitions hosted here
 *   kafka.server.replicamanager.leadercount                gauge    partitions led here
 *   kafka.server.replicamanager.underreplicatedpartitions  gauge    led here with an ISR smaller than the replicas
 *   kafka.server.replicamanager.isrshrinks                 counter  IsrShrinksPerSec: ISR changes this leader made smaller
 *   kafka.server.replicamanager.isrexpands                 counter  IsrExpandsPerSec: ... made larger
 * </pre>
 * A single node hosts and leads every partition, none under-replicated, and never changes an ISR.
 */
public final class ReplicaManagerMeters {

    /** What the gauges read when scraped. */
    public interface Partitions {
        int hosted();

        int led();

        int underReplicated();
    }

    private final Counter isrShrinks;
    private final Counter isrExpands;

    /** The gauges hold {@code partitions} strongly: a view made for them alone would otherwise be collected. */
    public ReplicaManagerMeters(MeterRegistry registry, Partitions partitions) {
        Gauge.builder("kafka.server.replicamanager.partitioncount", partitions, Partitions::hosted)
                .description("Partitions hosted by this broker").strongReference(true).register(registry);
        Gauge.builder("kafka.server.replicamanager.leadercount", partitions, Partitions::led)
                .description("Partitions led by this broker").strongReference(true).register(registry);
        Gauge.builder("kafka.server.replicamanager.underreplicatedpartitions", partitions, Partitions::underReplicated)
                .description("Partitions led here whose ISR is smaller than their replicas").strongReference(true)
                .register(registry);
        isrShrinks = Counter.builder("kafka.server.replicamanager.isrshrinks")
                .description("ISR changes of partitions led here that removed replicas").register(registry);
        isrExpands = Counter.builder("kafka.server.replicamanager.isrexpands")
                .description("ISR changes of partitions led here that added replicas").register(registry);
    }

    /** A single node's: it hosts and leads each of {@code partitions}, every one in sync with itself. */
    public static ReplicaManagerMeters singleNode(MeterRegistry registry, Collection<?> partitions) {
        return new ReplicaManagerMeters(registry, new Partitions() {
            @Override
            public int hosted() {
                return partitions.size();
            }

            @Override
            public int led() {
                return partitions.size();
            }

            @Override
            public int underReplicated() {
                return 0;
            }
        });
    }

    /** A partition led here changed its ISR from {@code before} to {@code after} members. */
    public void isrChanged(int before, int after) {
        if (after < before) {
            isrShrinks.increment();
        } else if (after > before) {
            isrExpands.increment();
        }
    }
}
