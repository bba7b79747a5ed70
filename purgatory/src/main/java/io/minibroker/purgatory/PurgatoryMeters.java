package io.minibroker.purgatory;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * Publishes a purgatory's figures to Micrometer, tagged {@code delayedOperation=<name>} as Kafka tags its
 * purgatory metrics. Micrometer is an optional dependency: this is the only class that touches it, so a
 * purgatory runs without it on the class path.
 *
 * <pre>
 *   purgatory.size                 gauge    watch entries, Kafka's PurgatorySize
 *   purgatory.delayed.operations   gauge    operations waiting for a timeout, Kafka's NumDelayedOperations
 *   purgatory.completions          counter  operations completed before their timeout
 *   purgatory.expirations          counter  operations that timed out
 *   purgatory.purges               counter  purges of completed entries from the watcher lists
 * </pre>
 */
public final class PurgatoryMeters implements MeterBinder {

    private final Purgatory<?> purgatory;

    public PurgatoryMeters(Purgatory<?> purgatory) {
        this.purgatory = purgatory;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        String tag = "delayedOperation";
        String name = purgatory.name();
        Gauge.builder("purgatory.size", purgatory, Purgatory::watched)
                .tag(tag, name).description("Watch entries across all keys").register(registry);
        Gauge.builder("purgatory.delayed.operations", purgatory, Purgatory::numDelayed)
                .tag(tag, name).description("Operations waiting for their timeout").register(registry);
        FunctionCounter.builder("purgatory.completions", purgatory, Purgatory::completions)
                .tag(tag, name).description("Operations completed before their timeout").register(registry);
        FunctionCounter.builder("purgatory.expirations", purgatory, Purgatory::expirations)
                .tag(tag, name).description("Operations that timed out").register(registry);
        FunctionCounter.builder("purgatory.purges", purgatory, Purgatory::purges)
                .tag(tag, name).description("Purges of completed entries from watcher lists").register(registry);
    }
}
