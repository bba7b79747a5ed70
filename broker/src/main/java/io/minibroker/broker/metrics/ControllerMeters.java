package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.IntSupplier;

/**
 * Kafka's {@code kafka.controller:type=KafkaController} gauges, named so that Prometheus shows them as Kafka's JMX
 * exporter does: {@code kafka.controller.kafkacontroller.activecontrollercount} (1 on the node that is the
 * controller, 0 elsewhere, so a cluster's sum is 1; a single node is its own) and
 * {@code kafka.controller.kafkacontroller.offlinepartitionscount} (partitions without a leader, reported by the
 * controller only, 0 elsewhere, as Kafka's active controller alone reports it).
 */
public final class ControllerMeters {

    private ControllerMeters() {
    }

    /** @param offlinePartitions null on a node that is not the controller */
    public static void bindTo(MeterRegistry registry, boolean activeController, IntSupplier offlinePartitions) {
        Gauge.builder("kafka.controller.kafkacontroller.activecontrollercount", () -> activeController ? 1 : 0)
                .description("1 on the controller, 0 elsewhere").register(registry);
        Gauge.builder("kafka.controller.kafkacontroller.offlinepartitionscount",
                        () -> offlinePartitions == null ? 0 : offlinePartitions.getAsInt())
                .description("Partitions without a leader, on the controller").register(registry);
    }
}
