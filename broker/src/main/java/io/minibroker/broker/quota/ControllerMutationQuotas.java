package io.minibroker.broker.quota;

import io.minibroker.broker.metrics.QuotaMeters;
import io.minibroker.broker.metrics.SampledStat;
import io.minibroker.broker.quota.QuotaResolution.Applied;
import io.minibroker.broker.quota.QuotaResolution.Tags;
import io.minibroker.protocol.message.ApiKey;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * {@code controller_mutation_rate} (KIP-599), as Kafka 4.3.1's ControllerMutationQuotaManager enforces it on
 * CreateTopics, CreatePartitions and DeleteTopics: each topic's partitions created, added or deleted are permits taken
 * from the {@link TokenBucket} of the client's quota ({@link QuotaResolution}: the same entities and order as the
 * byte rates). A request from a client version that knows THROTTLING_QUOTA_EXCEEDED (CreateTopics v6+, DeleteTopics
 * v5+, CreatePartitions v3+) gets a strict quota: a topic that comes while the bucket is below zero is refused with
 * that error (no message: Kafka's ApiError.fromThrowable drops one equal to the error's default), and one that comes
 * before takes its permits even if they take the bucket below zero. An older client's
 * request gets a permissive one: every topic goes through. The answer's ThrottleTimeMs is what is left of the
 * throttle the request met (the time the bucket needed to get back to zero), and the connection is muted that long.
 *
 * <p>Its metrics ({@link QuotaMeters}), as ControllerMutationQuotaManager's sensors, of every client once a
 * {@code controller_mutation_rate} is set for anyone: {@code mutation-rate}, the permits taken per second, a Rate
 * over the metrics' default windows (2 of 30 s, the sensor having no config of its own), {@code throttle-time}, the
 * average of the throttle times answered, and {@code tokens}, what is left in the entity's token bucket, per entity.
 */
public final class ControllerMutationQuotas {

    /** Kafka's strictSinceVersion of each API, from ControllerApis. */
    public static final short CREATE_TOPICS_STRICT_SINCE = 6;
    public static final short DELETE_TOPICS_STRICT_SINCE = 5;
    public static final short CREATE_PARTITIONS_STRICT_SINCE = 3;
    /** Buckets kept before the full ones (the same as new) are dropped: client ids are the clients' to make up. */
    private static final int SWEEP_AT = 10_000;

    private final QuotaResolution resolution;
    private final LongSupplier clockMs;
    /** {@code controller.quota.window.num x controller.quota.window.size.seconds}: a burst, in seconds of quota. */
    private final double burstSeconds;
    private final Map<Tags, TokenBucket> buckets = new ConcurrentHashMap<>();
    /** Each entity's mutation-rate, with its metrics. */
    private final RateTable<Tags> mutationRates;

    /**
     * @param windows       {@code controller.quota.window.num}
     * @param windowSeconds {@code controller.quota.window.size.seconds}
     */
    public ControllerMutationQuotas(ClientQuotas quotas, LongSupplier clockMs, int windows, int windowSeconds) {
        this(quotas, clockMs, windows, windowSeconds, QuotaMeters.NONE);
    }

    /** @param meters the ControllerMutation metrics: {@code mutation-rate} and {@code throttle-time} */
    public ControllerMutationQuotas(ClientQuotas quotas, LongSupplier clockMs, int windows, int windowSeconds,
                                    QuotaMeters meters) {
        this.resolution = new QuotaResolution(QuotaConfig.CONTROLLER_MUTATION_RATE, quotas);
        this.clockMs = clockMs;
        this.burstSeconds = (double) windows * windowSeconds;
        this.mutationRates = new RateTable<>(SampledStat.DEFAULT_SAMPLES, SampledStat.DEFAULT_WINDOW_MS,
                (tags, entry) -> meters.tokenBucketEntity(tags.user(), tags.clientId(),
                        () -> entry.measure(clockMs.getAsLong()), () -> tokens(tags)));
    }

    /**
     * Kafka's {@code tokens} of an entity: its bucket refilled to now under the quota its tags have now (Kafka's
     * sensor measures under the quota its config was last updated to); a bucket dropped full, or never made (no
     * limit), is full: its burst, which without a limit is Long.MAX_VALUE's, as Kafka's bucket bounded at it.
     */
    private double tokens(Tags tags) {
        double bound = resolution.bound(tags);
        double burst = bound * burstSeconds;
        TokenBucket bucket = buckets.get(tags);
        if (bucket == null) {
            return burst;
        }
        synchronized (bucket) {
            return bucket.measure(bound, burst, clockMs.getAsLong());
        }
    }

    /**
     * The quota of the topics this broker has created on a client's account (a Metadata request's, a streams group
     * member's internal topics), counted as Kafka's controller counts the CreateTopics its broker sends in an Envelope
     * as the client's: of the latest version, so strict.
     */
    public Quota newQuotaForCreationsOf(String user, String clientId) {
        return newQuotaFor(user, clientId, ApiKey.CREATE_TOPICS.highestStableVersion(), CREATE_TOPICS_STRICT_SINCE);
    }

    /**
     * The quota one request's topics are counted against, strict from {@code strictSinceVersion} on. While no
     * {@code controller_mutation_rate} is set for anyone nothing is counted; once one is, every client's topics are,
     * one without a quota of its own into its mutation-rate only (under the tags Kafka's callback gives it), never
     * refused nor throttled, as Kafka's ControllerMutationQuotaManager gives every client a quota sensor once quotas
     * are enabled, bounded at Long.MAX_VALUE for a client without one.
     */
    public Quota newQuotaFor(String user, String clientId, short version, short strictSinceVersion) {
        Applied applied = resolution.applied(user, clientId == null ? "" : clientId);
        return applied == null ? Quota.UNBOUNDED : new Quota(this, applied, version >= strictSinceVersion);
    }

    /** Drops the mutation rates (and their metrics) of entities idle for an hour, as Kafka expires its sensors. */
    public void expireIdle() {
        mutationRates.expireIdle(clockMs.getAsLong());
    }

    private TokenBucket bucket(Tags tags, long now) {
        TokenBucket bucket = buckets.get(tags);
        if (bucket == null) {
            if (buckets.size() >= SWEEP_AT) {
                buckets.values().removeIf(held -> {
                    synchronized (held) {
                        return held.fullAt(now);
                    }
                });
            }
            bucket = buckets.computeIfAbsent(tags, made -> new TokenBucket());
        }
        return bucket;
    }

    /** One request's quota: what its topics record, and the throttle time its answer carries. */
    public static final class Quota {

        /** No controller_mutation_rate is set for anyone: every topic goes through, uncounted, no throttle. */
        public static final Quota UNBOUNDED = new Quota(null, null, false);

        private final ControllerMutationQuotas quotas;
        private final Applied applied;
        private final boolean strict;
        private long throttleMs;
        private long throttledAtMs;

        private Quota(ControllerMutationQuotas quotas, Applied applied, boolean strict) {
            this.quotas = quotas;
            this.applied = applied;
            this.strict = strict;
        }

        /**
         * Whether a quota with a limit applies: only then does a handler check a topic before counting it and then
         * creating it; without one it creates (or validates) the topic at once, and then records it.
         */
        public boolean bounded() {
            return applied != null && applied.bounded();
        }

        /**
         * Takes a topic's {@code permits} (its partitions); false if the strict quota refuses the topic
         * (THROTTLING_QUOTA_EXCEEDED), in which case nothing is taken. Without a limit, only the mutation-rate
         * records them (nothing at all while no controller_mutation_rate is set).
         */
        public boolean record(int permits) {
            if (applied == null) {
                return true;
            }
            long now = quotas.clockMs.getAsLong();
            if (!applied.bounded()) {
                quotas.mutationRates.get(applied.tags(), now).record(permits, now);
                return true;
            }
            double bound = applied.bound();
            double burst = bound * quotas.burstSeconds;
            TokenBucket bucket = quotas.bucket(applied.tags(), now);
            synchronized (bucket) {
                double before = bucket.measure(bound, burst, now);
                if (strict && before < 0) {
                    throttled(before, bound, now);
                    return false;
                }
                bucket.record(permits, bound, burst, now);
                quotas.mutationRates.get(applied.tags(), now).record(permits, now);
                double after = bucket.measure(bound, burst, now);
                if (!strict && after < 0) {
                    throttled(after, bound, now);
                }
                return true;
            }
        }

        /**
         * What is left of the last throttle this request met: its answer's ThrottleTimeMs (0: none), recorded in its
         * entity's throttle-time. Asked once, for the answer.
         */
        public int throttleTimeMs() {
            if (throttleMs == 0) {
                return 0;
            }
            int left = (int) Math.max(0, throttleMs - (quotas.clockMs.getAsLong() - throttledAtMs));
            RateTable.Entry entry = quotas.mutationRates.find(applied.tags());
            if (left > 0 && entry != null) {
                entry.meters().throttled(left);
            }
            return left;
        }

        /** Kafka's throttleTimeMs of a token bucket's violation: the time to refill to zero. */
        private void throttled(double tokens, double bound, long now) {
            throttleMs = Math.round(-tokens / bound * 1000);
            throttledAtMs = now;
        }
    }
}
