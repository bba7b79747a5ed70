package io.minibroker.broker.quota;

import io.minibroker.broker.metrics.QuotaMeters;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * The rates of a quota kind, by whom they measure (a user and client id, an address), made at the first request
 * under a quota and dropped once idle for an hour, as Kafka expires a quota sensor after
 * {@code InactiveSensorExpirationTimeSeconds}: a client that makes up a new client id for every request must not
 * grow the table without bound. The idle ones are looked for when the table has doubled since the last look, so
 * the cost stays constant per new rate, at a record 30 s or more after the last look, and when {@link #expireIdle} is
 * called (Kafka looks every 30 s). A rate's metrics, if it has any, are made with it and dropped with it.
 */
final class RateTable<K> {

    /** Kafka's ClientQuotaManager.InactiveSensorExpirationTimeSeconds. */
    static final long IDLE_EXPIRY_MS = 3_600_000;
    private static final int FIRST_SWEEP_AT = 1024;
    /** Kafka's Metrics.ExpireSensorTask period. */
    static final long EXPIRY_CHECK_INTERVAL_MS = 30_000;

    private final int samples;
    private final long windowMs;
    private final BiFunction<K, Entry, QuotaMeters.Entity> export;
    private final Map<K, Entry> rates = new ConcurrentHashMap<>();
    private volatile int sweepAt = FIRST_SWEEP_AT;
    private volatile long nextExpiryCheckMs = Long.MIN_VALUE;

    /** A rate, when it was last recorded into, and its metrics, guarded by the entry. */
    static final class Entry {
        private final SampledRate rate;
        private long lastRecordMs;
        private QuotaMeters.Entity meters = QuotaMeters.Entity.NONE;

        Entry(SampledRate rate, long nowMs) {
            this.rate = rate;
            this.lastRecordMs = nowMs; // not idle: a sweep right after it is made keeps it
        }

        /** Records {@code value} at {@code nowMs} (negative: takes it back), unchecked. */
        synchronized void record(double value, long nowMs) {
            rate.record(value, nowMs);
            lastRecordMs = nowMs;
        }

        /** The rate at {@code nowMs}, per second. */
        synchronized double measure(long nowMs) {
            return rate.measure(nowMs);
        }

        QuotaMeters.Entity meters() {
            return meters;
        }

        /**
         * Records {@code value} and returns Kafka's throttle time if the rate is then above {@code bound}:
         * (rate - bound) / bound x the window the rate is measured over, as ClientQuotaManager.throttleTime; else 0.
         */
        synchronized int recordAndGetThrottleTimeMs(double value, double bound, long nowMs) {
            record(value, nowMs);
            double measured = rate.measure(nowMs);
            return measured <= bound ? 0 : (int) Math.round((measured - bound) / bound * rate.windowSize(nowMs));
        }
    }

    RateTable(int samples, long windowMs) {
        this(samples, windowMs, (key, entry) -> QuotaMeters.Entity.NONE);
    }

    /** @param export makes a new rate's metrics */
    RateTable(int samples, long windowMs, BiFunction<K, Entry, QuotaMeters.Entity> export) {
        this.samples = samples;
        this.windowMs = windowMs;
        this.export = export;
    }

    /** The rate of {@code key}, made if it has none. */
    Entry get(K key, long nowMs) {
        if (nowMs >= nextExpiryCheckMs) {
            expireIdle(nowMs);
        }
        Entry entry = rates.get(key);
        if (entry == null) {
            entry = rates.computeIfAbsent(key, k -> {
                Entry made = new Entry(new SampledRate(samples, windowMs), nowMs);
                made.meters = export.apply(k, made);
                return made;
            });
            if (rates.size() >= sweepAt) {
                expireIdle(nowMs);
            }
        }
        return entry;
    }

    /** The rate of {@code key} if it has one, else null. */
    Entry find(K key) {
        return rates.get(key);
    }

    void remove(K key) {
        Entry removed = rates.remove(key);
        if (removed != null) {
            removed.meters.remove();
        }
    }

    /** Drops the rates idle for longer than {@link #IDLE_EXPIRY_MS}, and their metrics. */
    synchronized void expireIdle(long nowMs) {
        for (Iterator<Entry> it = rates.values().iterator(); it.hasNext(); ) {
            Entry entry = it.next();
            synchronized (entry) {
                if (nowMs - entry.lastRecordMs > IDLE_EXPIRY_MS) {
                    it.remove();
                    entry.meters.remove();
                }
            }
        }
        sweepAt = Math.max(FIRST_SWEEP_AT, 2 * rates.size());
        nextExpiryCheckMs = nowMs + EXPIRY_CHECK_INTERVAL_MS;
    }
}
