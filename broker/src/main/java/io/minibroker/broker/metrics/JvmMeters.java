package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * The JVM's and the process's meters (memory, collections, threads, classes, CPU, open files, uptime), which a
 * Kafka dashboard shows beside the broker's own: Kafka's Prometheus JMX exporter adds the same from the JVM's
 * MXBeans. Micrometer's binders read those MXBeans; the collector's listens for collection notifications, which
 * {@link #close} removes, so that a test JVM starting many brokers does not keep one listener per broker.
 */
public final class JvmMeters implements AutoCloseable {

    private final JvmGcMetrics collections;

    private JvmMeters(JvmGcMetrics collections) {
        this.collections = collections;
    }

    public static JvmMeters bindTo(MeterRegistry registry) {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        JvmGcMetrics collections = new JvmGcMetrics();
        collections.bindTo(registry);
        return new JvmMeters(collections);
    }

    @Override
    public void close() {
        collections.close();
    }
}
