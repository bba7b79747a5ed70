package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Kafka's rules for new partitions, with its messages (ReplicationControlManager.createPartitions and
 * validateManualPartitionAssignment): the one place a single node's and a cluster controller's CreatePartitions
 * and manual CreateTopics assignments are checked.
 */
public final class PartitionRules {

    /** Why a request is refused: Kafka's error code and message. */
    public record Refusal(Errors error, String message) {
    }

    private PartitionRules() {
    }

    /**
     * Why raising topic {@code name} from {@code current} to {@code count} partitions is refused, or null: a count
     * that is no increase, or manual {@code assignments} (null when the broker places the replicas) that do not hold
     * one replica list per new partition, each of {@code replicationFactor} distinct {@code brokers}.
     */
    public static Refusal increase(String name, int current, int count, List<List<Integer>> assignments,
                                   int replicationFactor, Collection<Integer> brokers) {
        if (count == current) {
            return new Refusal(Errors.INVALID_PARTITIONS, "Topic already has " + current + " partition(s).");
        }
        if (count < current) {
            return new Refusal(Errors.INVALID_PARTITIONS, "The topic " + name + " currently has " + current
                    + " partition(s); " + count + " would not be an increase.");
        }
        if (assignments == null) {
            return null;
        }
        if (assignments.size() != count - current) {
            return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, "Attempted to add " + (count - current)
                    + " additional partition(s), but only " + assignments.size() + " assignment(s) were specified.");
        }
        for (List<Integer> replicas : assignments) {
            String invalid = invalidAssignment(replicas, replicationFactor, brokers);
            if (invalid != null) {
                return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, invalid);
            }
        }
        return null;
    }

    /**
     * Why manual replica lists are refused (INVALID_REPLICA_ASSIGNMENT), or null: each must be non-empty, name only
     * {@code brokers}, none twice, and have as many replicas as the first.
     */
    public static String invalidAssignments(List<List<Integer>> assignments, Collection<Integer> brokers) {
        for (List<Integer> replicas : assignments) {
            String invalid = invalidAssignment(replicas, assignments.get(0).size(), brokers);
            if (invalid != null) {
                return invalid;
            }
        }
        return null;
    }

    /** Kafka's checks of one manual replica list, in its order (brokers by id), with its messages. */
    private static String invalidAssignment(List<Integer> replicas, int replicationFactor,
                                            Collection<Integer> brokers) {
        if (replicas.isEmpty()) {
            return "The manual partition assignment includes an empty replica list.";
        }
        List<Integer> sorted = new ArrayList<>(replicas);
        sorted.sort(Integer::compare);
        Integer previous = null;
        for (Integer broker : sorted) {
            if (!brokers.contains(broker)) {
                return "The manual partition assignment includes broker " + broker
                        + ", but no such broker is registered.";
            }
            if (broker.equals(previous)) {
                return "The manual partition assignment includes the broker " + broker + " more than once.";
            }
            previous = broker;
        }
        if (replicas.size() != replicationFactor) {
            return "The manual partition assignment includes a partition with " + replicas.size()
                    + " replica(s), but this is not consistent with previous partitions, which have "
                    + replicationFactor + " replica(s).";
        }
        return null;
    }
}
