package io.minibroker.broker.group;

import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;

/**
 * A consumer-protocol assignment, by topic id, as KIP-848 names partitions: immutable maps of topic id to sorted
 * partition numbers, with the set operations reconciliation needs. A topic with no partition is left out.
 */
final class TopicAssignment {

    static final Map<UUID, Set<Integer>> EMPTY = Map.of();

    private TopicAssignment() {
    }

    /** An immutable, sorted copy without empty topics. */
    static Map<UUID, Set<Integer>> copyOf(Map<UUID, ? extends Set<Integer>> assignment) {
        Map<UUID, Set<Integer>> copy = new TreeMap<>();
        assignment.forEach((topic, partitions) -> {
            if (!partitions.isEmpty()) {
                copy.put(topic, Collections.unmodifiableSet(new TreeSet<>(partitions)));
            }
        });
        return Collections.unmodifiableMap(copy);
    }

    /** The partitions of {@code a} that are also in {@code b}. */
    static Map<UUID, Set<Integer>> intersection(Map<UUID, Set<Integer>> a, Map<UUID, Set<Integer>> b) {
        Map<UUID, Set<Integer>> result = new TreeMap<>();
        a.forEach((topic, partitions) -> {
            Set<Integer> kept = new HashSet<>(partitions);
            kept.retainAll(b.getOrDefault(topic, Set.of()));
            result.put(topic, kept);
        });
        return copyOf(result);
    }

    /** The partitions of {@code a} that are not in {@code b}. */
    static Map<UUID, Set<Integer>> difference(Map<UUID, Set<Integer>> a, Map<UUID, Set<Integer>> b) {
        Map<UUID, Set<Integer>> result = new TreeMap<>();
        a.forEach((topic, partitions) -> {
            Set<Integer> kept = new HashSet<>(partitions);
            kept.removeAll(b.getOrDefault(topic, Set.of()));
            result.put(topic, kept);
        });
        return copyOf(result);
    }

    static Map<UUID, Set<Integer>> union(Map<UUID, Set<Integer>> a, Map<UUID, Set<Integer>> b) {
        Map<UUID, Set<Integer>> result = new TreeMap<>();
        a.forEach((topic, partitions) -> result.computeIfAbsent(topic, t -> new HashSet<>()).addAll(partitions));
        b.forEach((topic, partitions) -> result.computeIfAbsent(topic, t -> new HashSet<>()).addAll(partitions));
        return copyOf(result);
    }

    /** Whether every partition of {@code a} is in {@code b}. */
    static boolean containsAll(Map<UUID, Set<Integer>> b, Map<UUID, Set<Integer>> a) {
        return a.entrySet().stream().allMatch(e -> b.getOrDefault(e.getKey(), Set.of()).containsAll(e.getValue()));
    }
}
