package io.minibroker.broker.quota;

import io.minibroker.broker.log.ByteThrottle;

import java.util.function.LongSupplier;

/**
 * A byte rate and its bound, as one of Kafka's ReplicationQuotaManager sensors: the bytes recorded form a rate over
 * {@code samples} windows of {@code windowSeconds} on the broker's clock (Kafka's SimpleRate, which these quotas
 * use: {@link SampledRate#simple}), exceeded when above the bound, which is read at each check so that a dynamic
 * change applies at once ({@link Long#MAX_VALUE}: none).
 */
public final class ThrottledRate implements ByteThrottle {

    private final LongSupplier bound;
    private final LongSupplier clockMs;
    private final SampledRate recorded;

    public ThrottledRate(LongSupplier bound, LongSupplier clockMs, int samples, int windowSeconds) {
        this.bound = bound;
        this.clockMs = clockMs;
        this.recorded = SampledRate.simple(samples, windowSeconds * 1000L);
    }

    @Override
    public synchronized boolean isExceeded() {
        long limit = bound.getAsLong();
        return limit != Long.MAX_VALUE && recorded.measure(clockMs.getAsLong()) > limit;
    }

    /** Kafka's {@code byte-rate} of this quota: the bytes recorded per second now. */
    public synchronized double byteRate() {
        return recorded.measure(clockMs.getAsLong());
    }

    @Override
    public synchronized void record(long bytes) {
        recorded.record(bytes, clockMs.getAsLong());
    }
}
