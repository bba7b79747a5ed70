package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.function.LongSupplier;

/**
 * The broker's memory budgets ({@code docs/hostile-load.md}), as gauges an operator can alert on:
 * <pre>
 *   kafka.network.socketserver.memorypoolavailable  gauge  MemoryPoolAvailable: queued.max.request.bytes not reserved
 *   kafka.network.socketserver.memorypoolused       gauge  MemoryPoolUsed: reserved by requests being read
 *   minibroker.memory.budget.used                   gauge  budget   bytes reserved now
 *   minibroker.memory.budget.limit                  gauge  budget   the budget's size
 * </pre>
 * The first two are Kafka's {@code kafka.network:type=SocketServer} gauges of its request memory pool (so
 * {@code kafka_network_socketserver_memorypoolavailable} through the JMX exporter); the last two have no Kafka
 * counterpart and cover every budget: {@code requests} (the same pool), {@code unauthenticated-requests} (what
 * connections not yet authenticated may hold together) and {@code decompression} (the heap that batches being
 * validated may inflate into).
 */
public final class MemoryBudgetMeters {

    /** One budget as the gauges read it when scraped. */
    public record Budget(String name, LongSupplier used, long limit) {
    }

    private MemoryBudgetMeters() {
    }

    /** Registers the gauges; {@code requests} is also Kafka's memory pool. */
    public static void bindTo(MeterRegistry registry, Budget requests, Budget... others) {
        Gauge.builder("kafka.network.socketserver.memorypoolavailable", requests,
                        budget -> budget.limit() - budget.used().getAsLong())
                .description("Bytes of queued.max.request.bytes not reserved by requests being read")
                .strongReference(true).register(registry);
        Gauge.builder("kafka.network.socketserver.memorypoolused", requests, budget -> budget.used().getAsLong())
                .description("Bytes of queued.max.request.bytes reserved by requests being read")
                .strongReference(true).register(registry);
        bind(registry, requests);
        for (Budget budget : others) {
            bind(registry, budget);
        }
    }

    private static void bind(MeterRegistry registry, Budget budget) {
        Gauge.builder("minibroker.memory.budget.used", budget, b -> b.used().getAsLong()).tag("budget", budget.name())
                .description("Bytes of the memory budget reserved now").strongReference(true).register(registry);
        Gauge.builder("minibroker.memory.budget.limit", budget, Budget::limit).tag("budget", budget.name())
                .description("Bytes the memory budget holds").strongReference(true).register(registry);
    }
}
