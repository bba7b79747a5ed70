package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Topics whose partitions' replicas AlterPartitionReassignments can move and ListPartitionReassignments reports on:
 * the cluster's (the controller's assignments), or a single node's, where the node is every partition's only
 * replica. One pair of request handlers serves both.
 */
public interface ReassignableTopics {

    /**
     * A partition in the middle of a move, as Kafka's PartitionRegistration holds it: every replica, the ones being
     * added and the ones being removed (each also in {@code replicas}).
     */
    record Ongoing(List<Integer> replicas, List<Integer> adding, List<Integer> removing) {
        public Ongoing {
            replicas = List.copyOf(replicas);
            adding = List.copyOf(adding);
            removing = List.copyOf(removing);
        }
    }

    /** What altering one partition's reassignment answered: NONE, or the error and its message. */
    record Outcome(Errors error, String message) {
        public static final Outcome DONE = new Outcome(Errors.NONE, null);

        public static Outcome noSuchTopic(String topic) {
            return new Outcome(Errors.UNKNOWN_TOPIC_OR_PARTITION, "Unable to find a topic named " + topic + ".");
        }

        public static Outcome noSuchPartition(String topic, int partition) {
            return new Outcome(Errors.UNKNOWN_TOPIC_OR_PARTITION,
                    "Unable to find partition " + topic + ":" + partition + ".");
        }

        /** A cancel (null target) of a partition that is not moving: without a message, as Kafka 4.3.1 answers it. */
        public static final Outcome NOTHING_TO_CANCEL = new Outcome(Errors.NO_REASSIGNMENT_IN_PROGRESS, null);
    }

    /**
     * Moves a partition to the {@code target} replicas, or cancels its move when {@code target} is null; checked as
     * Kafka's controller checks it (UNKNOWN_TOPIC_OR_PARTITION, then {@link #refusal}, NO_REASSIGNMENT_IN_PROGRESS
     * for a cancel of a partition that is not moving).
     */
    Outcome reassign(String topic, int partition, List<Integer> target, boolean allowReplicationFactorChange);

    /** The moves in progress among these partitions of {@code topic}, by partition, in the order named. */
    Map<Integer, Ongoing> ongoing(String topic, List<Integer> partitions);

    /** Every move in progress, by topic, then by partition. */
    Map<String, Map<Integer, Ongoing>> ongoingAll();

    /**
     * Why a target replica list is refused, or null, in the order Kafka's controller checks it: an empty list, then
     * over the brokers in increasing id an unregistered broker or one named twice (INVALID_REPLICA_ASSIGNMENT); then,
     * when the request does not allow it, a replication factor other than the partition's (its replicas less those
     * being removed, while it moves) INVALID_REPLICATION_FACTOR.
     */
    static Outcome refusal(List<Integer> target, Set<Integer> registered, int currentReplicationFactor,
                           boolean allowReplicationFactorChange) {
        String invalid = PartitionRules.invalidReplicaList(target, registered);
        if (invalid != null) {
            return new Outcome(Errors.INVALID_REPLICA_ASSIGNMENT, invalid);
        }
        // No broker is named twice by now: the list's size is the replication factor asked for.
        if (!allowReplicationFactorChange && target.size() != currentReplicationFactor) {
            return new Outcome(Errors.INVALID_REPLICATION_FACTOR, "The replication factor is changed from "
                    + currentReplicationFactor + " to " + target.size());
        }
        return null;
    }
}
