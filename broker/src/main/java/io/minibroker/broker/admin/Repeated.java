package io.minibroker.broker.admin;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * What a topic request names more than once: Kafka's controller answers such a topic (or id) INVALID_REQUEST and
 * does not change it, and sets it aside before it authorizes the rest (CreateTopics, CreatePartitions, DeleteTopics).
 */
public final class Repeated {

    private Repeated() {
    }

    /** The keys that {@code entries} give more than once, in the order of their second mention. */
    public static <T, K> Set<K> keys(List<T> entries, Function<T, K> key) {
        Set<K> seen = new HashSet<>();
        Set<K> repeated = new LinkedHashSet<>();
        for (T entry : entries) {
            K k = key.apply(entry);
            if (!seen.add(k)) {
                repeated.add(k);
            }
        }
        return repeated;
    }
}
