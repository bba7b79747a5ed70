package io.minibroker.broker.quota;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One kind of client quota enforced as Kafka's ClientQuotaManager does ({@code producer_byte_rate} on Produce,
 * {@code consumer_byte_rate} on Fetch): a client's bytes are recorded against the quota that applies to its user and
 * client id, and a rate above it gives the time to throttle the client for, the excess over the bound times the
 * window measured ({@code quota.window.num} windows of {@code quota.window.size.seconds}).
 *
 * <p>Which quota applies is Kafka's default quota callback's choice, the first set of: user and client id, user and
 * default client id, user, default user and client id, default user and default client id, default user, client id,
 * default client id. Clients share a rate when they share the quota's entity as Kafka's metric tags name it: a
 * quota set for a user (its own or the default) is one rate per user, for a client id one per client id, for both
 * one per user and client id.
 */
public final class ClientQuotaManager {

    private final String key;
    private final ClientQuotas quotas;
    private final LongSupplier clockMs;
    private final int samples;
    private final long windowMs;
    /** Each rate by its metric tags (user, client id): made at a client's first request under a quota. */
    private final RateTable<Tags> rates;

    /** Which rate a client records into, and the quota that bounds it. */
    private record Tags(String user, String clientId) {
    }

    private record Applied(Tags tags, double bound) {
    }

    /** A place in the callback's order: the entity looked up, and the tags of the rate it bounds. */
    private record Level(QuotaEntity entity, Tags tags) {
    }

    /** A client without a quota of this kind, in {@link Resolved#byClient}. */
    private static final Applied NONE = new Applied(null, 0);
    /** At most this many clients' choices are kept: client ids come from clients, who may make up any number. */
    private static final int MOST_CLIENTS_RESOLVED = 10_000;

    /**
     * What these quotas (the map, by identity: replaced whole on each change) say for this kind: whether any is
     * set, and the quota each client asked about so far gets, so that a request looks its client up once instead
     * of walking the callback's eight entities.
     */
    private record Resolved(Map<QuotaEntity, Map<String, Double>> quotas, boolean enabled,
                            Map<Tags, Applied> byClient) {
    }

    private volatile Resolved resolved;

    public ClientQuotaManager(String key, ClientQuotas quotas, LongSupplier clockMs, int samples, int windowSeconds) {
        this.key = key;
        this.quotas = quotas;
        this.clockMs = clockMs;
        this.samples = samples;
        this.windowMs = windowSeconds * 1000L;
        this.rates = new RateTable<>(samples, windowMs);
    }

    /**
     * Records {@code bytes} for the client and returns how long to throttle it for, 0 if within its quota or if no
     * quota of this kind is set (then nothing is recorded, as Kafka records only once a quota is enabled).
     */
    public int recordAndGetThrottleTimeMs(String user, String clientId, long bytes) {
        Applied applied = applied(user, clientId);
        if (applied == null) {
            return 0;
        }
        long now = clockMs.getAsLong();
        return rates.get(applied.tags(), now).recordAndGetThrottleTimeMs(bytes, applied.bound(), now);
    }

    /** Takes back bytes recorded for the client (a throttled answer that was not sent), as Kafka's unrecord. */
    public void unrecord(String user, String clientId, long bytes) {
        Applied applied = applied(user, clientId);
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
        Applied applied = applied(user, clientId);
        return applied == null ? Integer.MAX_VALUE
                : (int) Math.min(Integer.MAX_VALUE, applied.bound() * (samples - 1) * (windowMs / 1000));
    }

    /** Whether a quota of this kind is set for anyone (else nothing is recorded). */
    public boolean enabled() {
        return resolved(quotas.all()).enabled();
    }

    /** The quota that applies to the client, with its rate's tags; null if none. */
    private Applied applied(String user, String clientId) {
        Resolved current = resolved(quotas.all());
        if (!current.enabled()) {
            return null;
        }
        Map<Tags, Applied> byClient = current.byClient();
        Tags client = new Tags(user, clientId);
        Applied applied = byClient.get(client);
        if (applied == null) {
            if (byClient.size() >= MOST_CLIENTS_RESOLVED) {
                byClient.clear();
            }
            applied = lookUp(current.quotas(), user, clientId);
            byClient.put(client, applied);
        }
        return applied == NONE ? null : applied;
    }

    /** Kafka's default callback order: the first of the eight entities with a quota of this kind, or NONE. */
    private Applied lookUp(Map<QuotaEntity, Map<String, Double>> all, String user, String clientId) {
        Tags both = new Tags(user, clientId);
        Tags userOnly = new Tags(user, "");
        Tags clientOnly = new Tags("", clientId);
        List<Level> levels = List.of(new Level(entity(user, clientId), both), new Level(entity(user, null), both),
                new Level(QuotaEntity.of(QuotaEntity.USER, user), userOnly),
                new Level(entity(null, clientId), both), new Level(entity(null, null), both),
                new Level(QuotaEntity.of(QuotaEntity.USER, null), userOnly),
                new Level(QuotaEntity.of(QuotaEntity.CLIENT_ID, clientId), clientOnly),
                new Level(QuotaEntity.of(QuotaEntity.CLIENT_ID, null), clientOnly));
        for (Level level : levels) {
            Double bound = all.getOrDefault(level.entity(), Map.of()).get(key);
            if (bound != null) {
                return new Applied(level.tags(), bound);
            }
        }
        return NONE;
    }

    private static QuotaEntity entity(String user, String clientId) {
        Map<String, String> entries = new HashMap<>(2);
        entries.put(QuotaEntity.USER, user);
        entries.put(QuotaEntity.CLIENT_ID, clientId);
        return new QuotaEntity(entries);
    }

    /** What {@code all} says for this kind: worked out once per change of the quotas, not per request. */
    private Resolved resolved(Map<QuotaEntity, Map<String, Double>> all) {
        Resolved known = resolved;
        if (known == null || known.quotas() != all) {
            known = new Resolved(all, all.values().stream().anyMatch(values -> values.containsKey(key)),
                    new ConcurrentHashMap<>());
            resolved = known;
        }
        return known;
    }
}
