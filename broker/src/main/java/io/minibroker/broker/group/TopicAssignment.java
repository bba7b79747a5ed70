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
 * partition numbers, with the set operations reconciliation needs. A topic with no partition is left out. A streams
 * group's tasks have the same shape, by subtopology id ({@link StreamsTasks}), and use the same operations.
 */
final class TopicAssignment {

    static final Map<UUID, Set<Integer>> EMPTY = Map.of();

    private TopicAssignment() {
    }

    /** An immutable, sorted copy without empty topics. */
    static <K> Map<K, Set<Integer>> copyOf(Map<K, ? extends Set<Integer>> assignment) {
        Map<K, Set<Integer>> copy = new TreeMap<>();
        assignment.forEach((topic, partitions) -> {
            if (!partitions.isEmpty()) {
                copy.put(topic, Collections.unmodifiableSet(new TreeSet<>(partitions)));
            }
        });
        return Collections.unmodifiableMap(copy);
    }

    /** The partitions of {@code a} that are also in {@code b}. */
    static <K> Map<K, Set<Integer>> intersection(Map<K, Set<Integer>> a, Map<K, Set<Integer>> b) {
        Map<K, Set<Integer>> result = new TreeMap<>();
        a.forEach((topic, partitions) -> {
            Set<Integer> kept = new HashSet<>(partitions);
            kept.retainAll(b.getOrDefault(topic, Set.of()));
            result.put(topic, kept);
        });
        return copyOf(result);
    }

    /** The partitions of {@code a} that are not in {@code b}. */
    static <K> Map<K, Set<Integer>> difference(Map<K, Set<Integer>> a, Map<K, Set<Integer>> b) {
        Map<K, Set<Integer>> result = new TreeMap<>();
        a.forEach((topic, partitions) -> {
            Set<Integer> kept = new HashSet<>(partitions);
            kept.removeAll(b.getOrDefault(topic, Set.of()));
            result.put(topic, kept);
        });
        return copyOf(result);
    }

    static <K> Map<K, Set<Integer>> union(Map<K, Set<Integer>> a, Map<K, Set<Integer>> b) {
        Map<K, Set<Integer>> result = new TreeMap<>();
        a.forEach((topic, partitions) -> result.computeIfAbsent(topic, t -> new HashSet<>()).addAll(partitions));
        b.forEach((topic, partitions) -> result.computeIfAbsent(topic, t -> new HashSet<>()).addAll(partitions));
        return copyOf(result);
    }

    /** Whether every partition of {@code a} is in {@code b}. */
    static <K> boolean containsAll(Map<K, Set<Integer>> b, Map<K, Set<Integer>> a) {
        return a.entrySet().stream().allMatch(e -> b.getOrDefault(e.getKey(), Set.of()).containsAll(e.getValue()));
    }
}
