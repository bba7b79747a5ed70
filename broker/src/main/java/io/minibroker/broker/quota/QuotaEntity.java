package io.minibroker.broker.quota;

import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Whom a client quota applies to, as Kafka's ClientQuotaEntity: entity type ({@code user}, {@code client-id},
 * {@code ip}) to entity name, a null name being the type's default entity ({@code <default>} in kafka-configs).
 *
 * @param entries unmodifiable, sorted by type, null names allowed
 */
public record QuotaEntity(Map<String, String> entries) {

    public static final String USER = "user";
    public static final String CLIENT_ID = "client-id";
    public static final String IP = "ip";

    public QuotaEntity {
        entries = Collections.unmodifiableMap(new TreeMap<>(entries));
    }

    /** An entity of one type: a named one, or the type's default if {@code name} is null. */
    public static QuotaEntity of(String type, String name) {
        Map<String, String> entries = new HashMap<>(2);
        entries.put(type, name);
        return new QuotaEntity(entries);
    }

    /**
     * Kafka's words for the entity in a message: its ClientQuotaEntity's, whose entries are a HashMap sized as the
     * request's list, so that the types come in the same order as in Kafka's messages.
     */
    public String describe() {
        Map<String, String> asKafka = new HashMap<>(entries.size());
        asKafka.putAll(entries);
        return "ClientQuotaEntity(entries=" + asKafka + ")";
    }
}
