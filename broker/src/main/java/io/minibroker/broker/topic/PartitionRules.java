package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.IntPredicate;

/**
 * Kafka's rules for new partitions, with its messages (ReplicationControlManager.createPartitions and
 * validateManualPartitionAssignment): the one place a single node's and a cluster controller's CreatePartitions
 * and manual CreateTopics assignments are checked.
 */
public final class PartitionRules {

    /** Why a request is refused: Kafka's error code and message. */
    public record Refusal(Errors error, String message) {
    }

    /** One manual assignment of a CreateTopics topic: a partition and its replica list. */
    public record ManualAssignment(int partition, List<Integer> replicas) {
    }

    /**
     * A CreateTopics topic's counts as asked (-1: the broker's default, {@code defaultPartitions} and
     * {@code defaultReplicationFactor}) and its manual assignments (none: the broker places the replicas).
     */
    public record NewTopic(int numPartitions, int replicationFactor, List<ManualAssignment> assignments,
                           int defaultPartitions, int defaultReplicationFactor) {

        /** Kafka's refusal of these counts or assignments on these brokers, or null ({@link #newTopic}). */
        public Refusal refusal(Collection<Integer> brokers) {
            return newTopic(numPartitions, replicationFactor, assignments, brokers);
        }

        /** The partitions the topic gets, once {@link #refusal} passed. */
        public int partitions() {
            return !assignments.isEmpty() ? assignments.size()
                    : numPartitions == -1 ? defaultPartitions : numPartitions;
        }

        /** The replicas each partition gets, once {@link #refusal} passed. */
        public int replicas() {
            return !assignments.isEmpty() ? assignments.get(0).replicas().size()
                    : replicationFactor == -1 ? defaultReplicationFactor : replicationFactor;
        }

        /** The manual assignments' replica lists, partition 0's first, once {@link #refusal} passed. */
        public List<List<Integer>> replicaLists() {
            return assignments.stream().sorted(Comparator.comparingInt(ManualAssignment::partition))
                    .map(ManualAssignment::replicas).toList();
        }
    }

    private PartitionRules() {
    }

    /**
     * Why raising topic {@code name} from {@code current} to {@code count} partitions, with {@code permitted} the
     * {@code controller_mutation_rate}'s say on the partitions added, is refused, or null: a count that is no
     * increase, manual {@code assignments} (null when the broker places the replicas) that do not hold one replica
     * list per new partition, the quota (THROTTLING_QUOTA_EXCEEDED, no message), or a list that is not
     * {@code replicationFactor} distinct {@code brokers}. In Kafka's order (ReplicationControlManager.createPartitions):
     * the quota counts a topic whose count and number of lists passed, before its lists' brokers are looked at.
     */
    public static Refusal increase(String name, int current, int count, List<List<Integer>> assignments,
                                   int replicationFactor, Collection<Integer> brokers, IntPredicate permitted) {
        Refusal refused = countAndAssignmentsSize(name, current, count, assignments);
        if (refused != null) {
            return refused;
        }
        if (!permitted.test(count - current)) {
            return new Refusal(Errors.THROTTLING_QUOTA_EXCEEDED, null);
        }
        if (assignments != null) {
            for (List<Integer> replicas : assignments) {
                String invalid = invalidAssignment(replicas, replicationFactor, brokers);
                if (invalid != null) {
                    return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, invalid);
                }
            }
        }
        return null;
    }

    private static Refusal countAndAssignmentsSize(String name, int current, int count,
                                                   List<List<Integer>> assignments) {
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
        return null;
    }

    /**
     * Why a new topic's counts or manual assignments are refused, or null, as ReplicationControlManager.createTopic
     * checks them once the name, existence and configs have passed: with assignments both counts must be -1 and
     * each list hold distinct {@code brokers}, as many as the first, for partitions 0, 1, 2...; without, each count
     * is positive or -1 (the broker's default).
     */
    static Refusal newTopic(int numPartitions, int replicationFactor, List<ManualAssignment> assignments,
                                   Collection<Integer> brokers) {
        if (assignments.isEmpty()) {
            if (replicationFactor < -1 || replicationFactor == 0) {
                return new Refusal(Errors.INVALID_REPLICATION_FACTOR,
                        "Replication factor must be larger than 0, or -1 to use the default value.");
            }
            if (numPartitions < -1 || numPartitions == 0) {
                return new Refusal(Errors.INVALID_PARTITIONS,
                        "Number of partitions was set to an invalid non-positive value.");
            }
            return null;
        }
        if (replicationFactor != -1) {
            return new Refusal(Errors.INVALID_REQUEST,
                    "A manual partition assignment was specified, but replication factor was not set to -1.");
        }
        if (numPartitions != -1) {
            return new Refusal(Errors.INVALID_REQUEST,
                    "A manual partition assignment was specified, but numPartitions was not set to -1.");
        }
        Set<Integer> partitions = new HashSet<>();
        for (ManualAssignment assignment : assignments) {
            if (!partitions.add(assignment.partition())) {
                return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT,
                        "Found multiple manual partition assignments for partition " + assignment.partition());
            }
            String invalid = invalidAssignment(assignment.replicas(), assignments.get(0).replicas().size(), brokers);
            if (invalid != null) {
                return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT, invalid);
            }
        }
        for (int partition = 0; partition < partitions.size(); partition++) {
            if (!partitions.contains(partition)) {
                return new Refusal(Errors.INVALID_REPLICA_ASSIGNMENT,
                        "partitions should be a consecutive 0-based integer sequence");
            }
        }
        return null;
    }

    /** Kafka's checks of one manual replica list, in its order (brokers by id), with its messages. */
    private static String invalidAssignment(List<Integer> replicas, int replicationFactor,
                                            Collection<Integer> brokers) {
        String invalid = invalidReplicaList(replicas, brokers);
        if (invalid == null && replicas.size() != replicationFactor) {
            return "The manual partition assignment includes a partition with " + replicas.size()
                    + " replica(s), but this is not consistent with previous partitions, which have "
                    + replicationFactor + " replica(s).";
        }
        return invalid;
    }

    /**
     * Kafka's validateManualPartitionAssignment without a replication factor to match, as its controller checks a
     * reassignment's target too: an empty list, then over the brokers in increasing id an unregistered one or one
     * named twice; null if none of these.
     */
    static String invalidReplicaList(List<Integer> replicas, Collection<Integer> brokers) {
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
        return null;
    }
}
