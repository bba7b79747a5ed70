package io.minibroker.broker.quota;

import io.minibroker.broker.metrics.QuotaMeters;
import io.minibroker.broker.quota.QuotaResolution.Applied;
import io.minibroker.broker.quota.QuotaResolution.Tags;

import java.util.function.LongSupplier;

/**
 * One kind of client quota enforced as Kafka's ClientQuotaManager does ({@code producer_byte_rate} on Produce,
 * {@code consumer_byte_rate} on Fetch, {@code request_percentage} on every request a client sends): a client's bytes
 * (or request time) are recorded against the quota that applies to its user and client id, and a rate above it gives
 * the time to throttle the client for, the excess over the bound times the window measured ({@code quota.window.num}
 * windows of {@code quota.window.size.seconds}), at most {@code maxThrottleMs}.
 *
 * <p>Which quota applies, and which clients share a rate, is {@link QuotaResolution}'s choice (Kafka's default quota
 * callback). Once a quota of this kind is set for anyone, every client's value is recorded, a client without a quota
 * of its own under the tags Kafka's callback gives it, so that the rate's metrics ({@link QuotaMeters}: Kafka's
 * {@code byte-rate} or {@code request-time}, and {@code throttle-time}) show every client, as Kafka's do.
 */
public final class ClientQuotaManager {

    private final QuotaResolution resolution;
    private final LongSupplier clockMs;
    private final int samples;
    private final long windowMs;
    /** The longest throttle: none for the byte rates; one window for request time, as ClientRequestQuotaManager's. */
    private final long maxThrottleMs;
    /** Each rate by its metric tags (user, client id): made at a client's first request under a quota. */
    private final RateTable<Tags> rates;

    public ClientQuotaManager(String key, ClientQuotas quotas, LongSupplier clockMs, int samples, int windowSeconds) {
        this(key, quotas, clockMs, samples, windowSeconds, Long.MAX_VALUE, QuotaMeters.NONE);
    }

    public ClientQuotaManager(String key, ClientQuotas quotas, LongSupplier clockMs, int samples, int windowSeconds,
                              long maxThrottleMs, QuotaMeters meters) {
        this.resolution = new QuotaResolution(key, quotas);
        this.clockMs = clockMs;
        this.samples = samples;
        this.windowMs = windowSeconds * 1000L;
        this.maxThrottleMs = maxThrottleMs;
        this.rates = new RateTable<>(samples, windowMs, (tags, entry) -> meters.entity(tags.user(), tags.clientId(),
                () -> entry.measure(clockMs.getAsLong())));
    }

    /**
     * Records {@code value} (bytes, or a request's time in percent-seconds) for the client and returns how long to
     * throttle it for, 0 if within its quota or without one; nothing is recorded while no quota of this kind is set
     * for anyone, as Kafka records only once a quota is enabled.
     */
    public int recordAndGetThrottleTimeMs(String user, String clientId, double value) {
        Applied applied = resolution.applied(user, clientId);
        if (applied == null) {
            return 0;
        }
        long now = clockMs.getAsLong();
        return (int) Math.min(maxThrottleMs,
                rates.get(applied.tags(), now).recordAndGetThrottleTimeMs(value, applied.bound(), now));
    }

    /**
     * The client was throttled for {@code throttleMs} because of this quota kind (its throttle being the longest the
     * answer met): its entity's {@code throttle-time}, as Kafka's ClientQuotaManager.throttle records it.
     */
    public void throttled(String user, String clientId, int throttleMs) {
        Applied applied = resolution.applied(user, clientId);
        RateTable.Entry entry = applied == null ? null : rates.find(applied.tags());
        if (entry != null) {
            entry.meters().throttled(throttleMs);
        }
    }

    /** Drops the rates (and their metrics) of entities idle for an hour, as Kafka expires its quota sensors. */
    public void expireIdle() {
        rates.expireIdle(clockMs.getAsLong());
    }

    /** Takes back bytes recorded for the client (a throttled answer that was not sent), as Kafka's unrecord. */
    public void unrecord(String user, String clientId, long bytes) {
        Applied applied = resolution.applied(user, clientId);
        RateTable.Entry entry = applied == null ? null : rates.find(applied.tags());
        if (entry != null) {
            entry.record(-bytes, clockMs.getAsLong());
        }
    }

    /**
     * The most bytes the client's quota lets through in the windows a rate is measured over at least (all but one),
     * as Kafka's getMaxValueInQuotaWindow; Integer.MAX_VALUE without a quota.
     */
    public int maxValueInQuotaWindow(String user, String clientId) {
        Applied applied = resolution.applied(user, clientId);
        return applied == null || !applied.bounded() ? Integer.MAX_VALUE
                : (int) Math.min(Integer.MAX_VALUE, applied.bound() * (samples - 1) * (windowMs / 1000));
    }

    /** Whether a quota of this kind is set for anyone (else nothing is recorded). */
    public boolean enabled() {
        return resolution.enabled();
    }
}
