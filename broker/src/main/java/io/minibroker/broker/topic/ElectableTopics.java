package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.Map;

/**
 * Topics whose partitions' leaders ElectLeaders can move: the cluster's (the controller's assignments), or a
 * single node's, where every partition's only replica already leads. One request handler serves both.
 */
public interface ElectableTopics {

    /** Kafka's election types, by their wire value (ElectLeaders v1+; v0 is always PREFERRED). */
    enum Type {
        /** Make the first replica of the assignment the leader, if it is live and in sync. */
        PREFERRED,
        /** Give a partition without a leader one, from outside the ISR if need be. */
        UNCLEAN;

        /** The type a wire value names, or null if it names none. */
        public static Type of(byte value) {
            return value >= 0 && value < values().length ? values()[value] : null;
        }
    }

    /** What the election of one partition answered: NONE, or the error and its message. */
    record ElectionResult(Errors error, String message) {
        public static final ElectionResult ELECTED = new ElectionResult(Errors.NONE, null);
        public static final ElectionResult NOT_NEEDED = new ElectionResult(Errors.ELECTION_NOT_NEEDED,
                "Leader election not needed for topic partition.");

        public static ElectionResult noSuchTopic(String topic) {
            return new ElectionResult(Errors.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as " + topic);
        }

        public static ElectionResult noSuchPartition(String topic, int partition) {
            return new ElectionResult(Errors.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as " + topic + "-" + partition);
        }
    }

    /** Elects leaders for these partitions of {@code topic}; an outcome for each, in the order given. */
    List<ElectionResult> elect(Type type, String topic, List<Integer> partitions);

    /**
     * Elects leaders for every partition of every topic, as ElectLeaders with no partitions named asks: for
     * each topic, the outcomes of the partitions whose election was needed (ELECTION_NOT_NEEDED is left out, as
     * Kafka's controller leaves it out), by partition index.
     */
    Map<String, Map<Integer, ElectionResult>> electAll(Type type);
}
