package io.minibroker.broker.quota;

import io.minibroker.protocol.error.Errors;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One AlterClientQuotas request's alterations checked as Kafka 4.3's ClientQuotaControlManager checks them, in its
 * order and words: each entity's result, and the changes of those that passed (to apply unless the request only
 * validates). As there, the changes of an entity named twice are those of its first alteration, the second told
 * "Ignoring duplicate entity"; an entity with a key named twice is told that too, and changes nothing.
 */
public final class QuotaAlterations {

    /** An entity's outcome: NONE and a null message, or Kafka's error and message. */
    public record Result(Errors error, String message) {
        static final Result OK = new Result(Errors.NONE, null);
    }

    private final Map<QuotaEntity, Map<String, Double>> current;
    private final Map<QuotaEntity, Result> results = new LinkedHashMap<>();
    private final Map<QuotaEntity, Map<String, Double>> changes = new LinkedHashMap<>();

    /** Alterations checked against these quotas (a removal of a key that is not there changes nothing). */
    public QuotaAlterations(Map<QuotaEntity, Map<String, Double>> current) {
        this.current = current;
    }

    /**
     * Checks one entry of the request.
     *
     * @param entity the entity as the request lists it: type to name, a later duplicate type replacing an earlier
     *               one (Kafka reads it into a HashMap of the list's size, whose order its checks and messages follow)
     * @param ops    each op's key and value, null for a removal, in the request's order
     */
    public void add(HashMap<String, String> entity, List<Map.Entry<String, Double>> ops) {
        QuotaEntity key = new QuotaEntity(entity);
        Map<String, Double> alterations = new HashMap<>(ops.size());
        boolean keyTwice = false;
        for (Map.Entry<String, Double> op : ops) {
            keyTwice |= alterations.containsKey(op.getKey());
            alterations.putIfAbsent(op.getKey(), op.getValue());
        }
        // Kafka records "Duplicate quota key" for a key named twice, and at once replaces it with this.
        if (keyTwice || results.containsKey(key)) {
            results.put(key, invalid("Ignoring duplicate entity " + key.describe()));
            return;
        }
        Result refusal = refusal(entity, alterations);
        if (refusal != null) {
            results.put(key, refusal);
            return;
        }
        Map<String, Double> now = current.getOrDefault(key, Map.of());
        Map<String, Double> changed = new HashMap<>();
        alterations.forEach((name, value) -> {
            if (value != null ? !value.equals(now.get(name)) : now.containsKey(name)) {
                changed.put(name, value);
            }
        });
        if (!changed.isEmpty()) {
            changes.put(key, changed);
        }
        results.put(key, Result.OK);
    }

    /** Each entity's result, in the order first named. */
    public Map<QuotaEntity, Result> results() {
        return results;
    }

    /** What the entities that passed change: by entity, key to value, null for a removal. */
    public Map<QuotaEntity, Map<String, Double>> changes() {
        return changes;
    }

    /** Why Kafka's controller refuses this entity's alterations, in its order; null if it takes them. */
    private static Result refusal(HashMap<String, String> entity, Map<String, Double> alterations) {
        if (entity.isEmpty()) {
            return invalid("Invalid empty client quota entity");
        }
        for (Map.Entry<String, String> entry : entity.entrySet()) {
            String type = entry.getKey();
            if (!type.equals(QuotaEntity.USER) && !type.equals(QuotaEntity.CLIENT_ID) && !type.equals(QuotaEntity.IP)) {
                return invalid("Unhandled client quota entity type: " + type);
            }
            if (entry.getValue() != null && entry.getValue().isEmpty()) {
                return invalid("Empty " + type + " not supported");
            }
        }
        Map<String, QuotaConfig.Type> keys;
        if (entity.containsKey(QuotaEntity.IP)) {
            if (entity.size() > 1) {
                // Kafka's message, missing space included.
                return invalid("Invalid quota entity combination, IP entity shouldnot be combined with User or"
                        + " ClientId");
            }
            String ip = entity.get(QuotaEntity.IP);
            if (ip != null && !resolves(ip)) {
                return invalid(ip + " is not a valid IP or resolvable host.");
            }
            keys = QuotaConfig.IP_KEYS;
        } else {
            keys = QuotaConfig.USER_AND_CLIENT_KEYS;
        }
        for (Map.Entry<String, Double> alteration : alterations.entrySet()) {
            String key = alteration.getKey();
            Double value = alteration.getValue();
            if (value == null) {
                continue; // a removal is never checked, not even its key
            }
            QuotaConfig.Type type = keys.get(key);
            if (type == null) {
                return invalid("Invalid configuration key " + key);
            }
            if (value <= 0.0) {
                return invalid("Quota " + key + " must be greater than 0");
            }
            String reason = type.invalidReason(key, value);
            if (reason != null) {
                return invalid(reason);
            }
        }
        return null;
    }

    /** Kafka's check of an ip entity: InetAddress resolves it (a literal address, or a host name DNS knows). */
    private static boolean resolves(String host) {
        try {
            InetAddress.getByName(host);
            return true;
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static Result invalid(String message) {
        return new Result(Errors.INVALID_REQUEST, message);
    }
}
