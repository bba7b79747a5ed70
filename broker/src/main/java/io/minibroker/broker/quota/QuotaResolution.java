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

    /**
     * The rate a client records into and the quota that bounds it: {@link #UNBOUNDED} for a client no quota of this
     * kind applies to, which Kafka records all the same (under the tags of its default callback) once any quota of the
     * kind is set, so that its metrics show every client's rate.
     */
    record Applied(Tags tags, double bound) {
        /** Kafka's quota limit when none applies: Long.MAX_VALUE. */
        static final double UNBOUNDED = Long.MAX_VALUE;

        boolean bounded() {
            return bound != UNBOUNDED;
        }
    }

    /** A place in the callback's order: the entity looked up, and the tags of the rate it bounds. */
    private record Level(QuotaEntity entity, Tags tags) {
    }

    /** The shapes of the entities with a quota of this kind: Kafka's quotaTypesEnabled bits. */
    private static final int CLIENT_ID_QUOTAS = 1;
    private static final int USER_QUOTAS = 2;
    private static final int USER_CLIENT_ID_QUOTAS = 4;
    /** At most this many clients' choices are kept: client ids come from clients, who may make up any number. */
    private static final int MOST_CLIENTS_RESOLVED = 10_000;

    /**
     * What these quotas (the map, by identity: replaced whole on each change) say for this kind: whether any is
     * set, and the quota each client asked about so far gets, so that a request looks its client up once instead
     * of walking the callback's eight entities.
     */
    private record Resolved(Map<QuotaEntity, Map<String, Double>> quotas, int shapes,
                            Map<Tags, Applied> byClient) {
        boolean enabled() {
            return shapes != 0;
        }
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

    /**
     * The quota that applies to the client, with its rate's tags ({@link Applied#UNBOUNDED} if none does); null if no
     * quota of this kind is set for anyone.
     */
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
            applied = lookUp(current, user, clientId);
            byClient.put(client, applied);
        }
        return applied;
    }

    /**
     * The quota that bounds the rate of these tags now ({@link Applied#UNBOUNDED} if none does), as Kafka's default
     * callback's quotaLimit reads it from a sensor's metric tags: for a user and client id, their quota, the user's
     * with the default client id, the default user's with the client id, the defaults'; for a user alone, the user's,
     * the default user's; for a client id alone, the client id's, the default client id's.
     */
    double bound(Tags tags) {
        Map<QuotaEntity, Map<String, Double>> all = resolved(quotas.all()).quotas();
        boolean user = !tags.user().isEmpty();
        boolean clientId = !tags.clientId().isEmpty();
        List<QuotaEntity> order = user && clientId
                ? List.of(entity(tags.user(), tags.clientId()), entity(tags.user(), null),
                        entity(null, tags.clientId()), entity(null, null))
                : user ? List.of(QuotaEntity.of(QuotaEntity.USER, tags.user()), QuotaEntity.of(QuotaEntity.USER, null))
                : clientId ? List.of(QuotaEntity.of(QuotaEntity.CLIENT_ID, tags.clientId()),
                        QuotaEntity.of(QuotaEntity.CLIENT_ID, null))
                : List.of();
        for (QuotaEntity entity : order) {
            Double bound = all.getOrDefault(entity, Map.of()).get(key);
            if (bound != null) {
                return bound;
            }
        }
        return Applied.UNBOUNDED;
    }

    /**
     * Kafka's default callback order: the first of the eight entities with a quota of this kind; if none has one, the
     * tags Kafka's callback gives a client without a quota: those of the one shape of entity set, or the client id's
     * when several are.
     */
    private Applied lookUp(Resolved current, String user, String clientId) {
        Map<QuotaEntity, Map<String, Double>> all = current.quotas();
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
        Tags unbounded = switch (current.shapes()) {
            case USER_QUOTAS -> userOnly;
            case USER_CLIENT_ID_QUOTAS -> both;
            default -> clientOnly;
        };
        return new Applied(unbounded, Applied.UNBOUNDED);
    }

    /** Kafka's quotaTypesEnabled for this kind: which shapes of entity (user and client id, user, client id) have one. */
    private int shapes(Map<QuotaEntity, Map<String, Double>> all) {
        int shapes = 0;
        for (Map.Entry<QuotaEntity, Map<String, Double>> quota : all.entrySet()) {
            if (!quota.getValue().containsKey(key)) {
                continue;
            }
            Map<String, String> entries = quota.getKey().entries();
            boolean user = entries.containsKey(QuotaEntity.USER);
            boolean clientId = entries.containsKey(QuotaEntity.CLIENT_ID);
            shapes |= user && clientId ? USER_CLIENT_ID_QUOTAS : user ? USER_QUOTAS : clientId ? CLIENT_ID_QUOTAS : 0;
        }
        return shapes;
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
            known = new Resolved(all, shapes(all), new ConcurrentHashMap<>());
            resolved = known;
        }
        return known;
    }
}
