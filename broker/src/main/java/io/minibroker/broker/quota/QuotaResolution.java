package io.minibroker.broker.quota;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which quota of one kind applies to a client, as Kafka's default quota callback picks it: the first set of user and
 * client id, user and default client id, user, default user and client id, default user and default client id,
 * default user, client id, default client id. Clients share a rate (or a token bucket) when they share the quota's
 * entity as Kafka's metric tags name it: a quota set for a user (its own or the default) is one per user, for a
 * client id one per client id, for both one per user and client id.
 */
final class QuotaResolution {

    private final String key;
    private final ClientQuotas quotas;

    /** Which rate a client records into, and the quota that bounds it. */
    record Tags(String user, String clientId) {
    }

    record Applied(Tags tags, double bound) {
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

    QuotaResolution(String key, ClientQuotas quotas) {
        this.key = key;
        this.quotas = quotas;
    }

    /** Whether a quota of this kind is set for anyone (else nothing is recorded). */
    boolean enabled() {
        return resolved(quotas.all()).enabled();
    }

    /** The quota that applies to the client, with its rate's tags; null if none. */
    Applied applied(String user, String clientId) {
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
