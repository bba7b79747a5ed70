package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleSupplier;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * One client quota kind's metrics per entity, as Kafka's quota managers name them ({@code kafka.server:type=<Kafka's
 * quota type>,user=...,client-id=...}), named so that the Prometheus names are those Kafka's JMX exporter gives them:
 * <pre>
 *   kafka.server.produce.byte.rate                 gauge  user, client-id  Produce byte-rate (B/s)
 *   kafka.server.produce.throttle.time             gauge  user, client-id  Produce throttle-time (avg ms)
 *   kafka.server.fetch.byte.rate / .throttle.time
 *   kafka.server.request.request.time / .throttle.time                      Request (percent of a thread)
 *   kafka.server.controllermutation.mutation.rate / .throttle.time          ControllerMutation (partitions/s)
 *   kafka.server.controllermutation.tokens         gauge  user, client-id  ControllerMutation tokens (KIP-599)
 *   kafka.server.produce.queue.size (fetch, request, controllermutation)  gauge  <type> queue-size (muted connections)
 * </pre>
 * The rate is the quota's own (over the quota's windows); {@code throttle-time} is Kafka's Avg of the throttles the
 * entity's clients got from this quota kind, over the metrics' default windows ({@link SampledStat#kafkaDefault}),
 * NaN when there was none. The user tag is sanitized as Kafka's Sanitizer does it (URL-encoded, {@code *} and
 * space as {@code %2A} and {@code %20}); a tag the entity does not use is {@code ""}, as in Kafka.
 */
public final class ClientQuotaMeters implements QuotaMeters {

    private final MeterRegistry registry;
    private final String quotaType;
    private final String rateMeter;
    private final String throttleTimeMeter;
    private final String rateDescription;
    private final LongSupplier clockMs;

    /**
     * @param quotaType Kafka's QuotaType name: {@code Produce}, {@code Fetch}, {@code Request}, {@code ControllerMutation}
     * @param rateName  the rate's Kafka name: {@code byte-rate}, {@code request-time}, {@code mutation-rate}
     */
    public ClientQuotaMeters(MeterRegistry registry, String quotaType, String rateName, LongSupplier clockMs) {
        this.registry = registry;
        this.quotaType = quotaType;
        this.rateMeter = kafkaServerMeter(quotaType, rateName);
        this.throttleTimeMeter = kafkaServerMeter(quotaType, "throttle-time");
        this.rateDescription = "Tracking " + rateName + " per user/client-id";
        this.clockMs = clockMs;
    }

    /** Kafka's ControllerMutation metrics: {@code mutation-rate} and {@code throttle-time}. */
    public static ClientQuotaMeters controllerMutation(MeterRegistry registry, LongSupplier clockMs) {
        return new ClientQuotaMeters(registry, "ControllerMutation", "mutation-rate", clockMs);
    }

    /** The meter a {@code kafka.server:type=<type>} metric's attribute is exported as: lower case, dots for dashes. */
    public static String kafkaServerMeter(String type, String metric) {
        return "kafka.server." + type.toLowerCase(Locale.ROOT) + "." + metric.replace('-', '.');
    }

    @Override
    public Entity entity(String user, String clientId, DoubleSupplier rate) {
        return entity(entityTags(user, clientId), rate, List.of());
    }

    @Override
    public Entity tokenBucketEntity(String user, String clientId, DoubleSupplier rate, DoubleSupplier tokens) {
        Tags tags = entityTags(user, clientId);
        return entity(tags, rate, List.of(Gauge.builder(kafkaServerMeter(quotaType, "tokens"), tokens,
                        DoubleSupplier::getAsDouble).tags(tags).strongReference(true)
                .description("Tracking remaining tokens in the token bucket per user/client-id").register(registry)));
    }

    private static Tags entityTags(String user, String clientId) {
        return Tags.of("user", sanitize(user), "client-id", clientId);
    }

    /** The entity's rate and throttle-time, registered with {@code others}, and removed with them. */
    private Entity entity(Tags tags, DoubleSupplier rate, List<Meter> others) {
        SampledStat throttleTimes = SampledStat.kafkaDefault();
        // Held strongly: a gauge only weakly references what it reads, and nothing else holds the rate's reader.
        Meter rateGauge = Gauge.builder(rateMeter, rate, DoubleSupplier::getAsDouble).tags(tags).strongReference(true)
                .description(rateDescription).register(registry);
        Meter throttleGauge = Gauge.builder(throttleTimeMeter, throttleTimes, stat -> stat.average(clockMs.getAsLong()))
                .tags(tags).strongReference(true).description("Tracking average throttle-time per user/client-id")
                .register(registry);
        return new Entity() {
            @Override
            public void throttled(int throttleMs) {
                throttleTimes.record(throttleMs, clockMs.getAsLong());
            }

            @Override
            public void remove() {
                registry.remove(rateGauge);
                registry.remove(throttleGauge);
                others.forEach(registry::remove);
            }
        };
    }

    /**
     * Kafka's {@code Request} {@code exempt-request-time}: the rate, in percent of a thread, of the time spent on the
     * requests exempt from the request quota, over the metrics' default windows; no entity tags.
     */
    public static void bindExemptRequestTime(MeterRegistry registry, DoubleSupplier rate) {
        Gauge.builder(kafkaServerMeter("Request", "exempt-request-time"), rate, DoubleSupplier::getAsDouble)
                .strongReference(true).description("Tracking exempt-request-time utilization percentage")
                .register(registry);
    }

    /**
     * Kafka's {@code queue-size} of a quota type's manager ({@code kafka.server:type=<type>}, no entity tags): the
     * throttled channels waiting in its delay queue for their throttle to end.
     */
    public static void bindQueueSize(MeterRegistry registry, String quotaType, IntSupplier size) {
        Gauge.builder(kafkaServerMeter(quotaType, "queue-size"), size, IntSupplier::getAsInt).strongReference(true)
                .description("Tracks the size of the delay queue").register(registry);
    }

    /** Kafka's Sanitizer.sanitize, which its quota tags give the user's name through. */
    static String sanitize(String name) {
        return URLEncoder.encode(name, StandardCharsets.UTF_8).replace("*", "%2A").replace("+", "%20");
    }
}
