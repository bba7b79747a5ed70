package io.minibroker.broker.group;

import java.util.Map;
import java.util.Set;

/**
 * A streams-group member's tasks, Kafka's TasksTuple: active, standby and warm-up tasks, each an immutable map of
 * subtopology id to sorted partition numbers (a task is a subtopology's partition), with the set operations
 * reconciliation needs ({@link TopicAssignment}'s).
 */
record StreamsTasks(Map<String, Set<Integer>> active, Map<String, Set<Integer>> standby,
                    Map<String, Set<Integer>> warmup) {

    static final StreamsTasks EMPTY = new StreamsTasks(Map.of(), Map.of(), Map.of());

    StreamsTasks {
        active = TopicAssignment.copyOf(active);
        standby = TopicAssignment.copyOf(standby);
        warmup = TopicAssignment.copyOf(warmup);
    }

    boolean isEmpty() {
        return active.isEmpty() && standby.isEmpty() && warmup.isEmpty();
    }

    /** Whether any task of {@code other} is here, of the same kind. */
    boolean containsAny(StreamsTasks other) {
        return !TopicAssignment.intersection(active, other.active).isEmpty()
                || !TopicAssignment.intersection(standby, other.standby).isEmpty()
                || !TopicAssignment.intersection(warmup, other.warmup).isEmpty();
    }

    /** Whether every task of {@code other} is here, of the same kind. */
    boolean containsAll(StreamsTasks other) {
        return TopicAssignment.containsAll(active, other.active) && TopicAssignment.containsAll(standby, other.standby)
                && TopicAssignment.containsAll(warmup, other.warmup);
    }

    StreamsTasks union(StreamsTasks other) {
        return new StreamsTasks(TopicAssignment.union(active, other.active),
                TopicAssignment.union(standby, other.standby), TopicAssignment.union(warmup, other.warmup));
    }

    static int count(Map<String, Set<Integer>> tasks) {
        return tasks.values().stream().mapToInt(Set::size).sum();
    }
}
