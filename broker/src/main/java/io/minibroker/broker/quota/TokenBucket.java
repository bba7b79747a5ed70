package io.minibroker.broker.quota;

/**
 * Kafka's TokenBucket stat, which KIP-599 chose for {@code controller_mutation_rate} so that a burst of mutations
 * (one CreateTopics of many partitions) is let through at once and paid for afterwards. The bucket holds up to
 * {@code burst = quota x samples x window seconds} tokens, refills at {@code quota} tokens a second, and each
 * recording takes its permits out, down below zero if need be; while it is below zero the quota is violated, for
 * {@code -tokens / quota} seconds more.
 *
 * <p>Worked example, quota 2 a second with Kafka's default 11 windows of 1 s (burst 22): a new bucket is full, so a
 * topic of 30 partitions is created at once and leaves -8 tokens; the next CreateTopics within 4 s finds the bucket
 * empty and is throttled for 4000 ms less the time since, as Kafka's ControllerMutationQuotaManager.throttleTimeMs.
 *
 * <p>A bucket that has refilled to its burst is the same as a new one, so one may be dropped then and made again.
 * Not thread-safe: guarded by its owner.
 */
final class TokenBucket {

    private double tokens;
    private long lastUpdateMs;
    /**
     * Not looked at yet: the first look finds it full, as Kafka's does (whose first refill counts from the epoch, its
     * clock's zero); here the clock may be a monotonic one that starts near zero.
     */
    private boolean unused = true;
    /** The quota and burst of its last look, by which {@link #fullAt} tells whether it may be dropped. */
    private double lastQuota;
    private double lastBurst;

    /** The tokens left at {@code nowMs}, refilled for the time since the last look. */
    double measure(double quota, double burst, long nowMs) {
        refill(quota, burst, nowMs);
        return tokens;
    }

    /** Takes {@code permits} out at {@code nowMs}, after refilling. */
    void record(double permits, double quota, double burst, long nowMs) {
        refill(quota, burst, nowMs);
        tokens = Math.min(burst, tokens - permits);
    }

    /** Whether it has refilled to its burst by {@code nowMs} under the quota it last saw: the same as a new one. */
    boolean fullAt(long nowMs) {
        return measure(lastQuota, lastBurst, nowMs) >= lastBurst;
    }

    private void refill(double quota, double burst, long nowMs) {
        tokens = unused ? burst : Math.min(burst, tokens + quota * (nowMs - lastUpdateMs) / 1000.0);
        unused = false;
        lastUpdateMs = nowMs;
        lastQuota = quota;
        lastBurst = burst;
    }
}
