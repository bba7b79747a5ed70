package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Partitions' errors as the requests a coordinator and a leader send each other carry them (WriteTxnMarkers,
 * AddPartitionsToTxn): by topic on the wire, by partition in answers. Shared by both queues ({@link MarkerQueues},
 * {@link AddPartitionsQueues}) and the appenders and checks that answer a whole set of partitions alike.
 */
final class PartitionErrors {

    private PartitionErrors() {
    }

    /** Partition indexes by topic, as requests name them. */
    static Map<String, List<Integer>> byTopic(Collection<TopicPartition> partitions) {
        Map<String, List<Integer>> byTopic = new HashMap<>();
        partitions.forEach(p -> byTopic.computeIfAbsent(p.topic(), t -> new ArrayList<>()).add(p.partition()));
        return byTopic;
    }

    /** The same error for each partition. */
    static Map<TopicPartition, Errors> every(Collection<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        partitions.forEach(partition -> errors.put(partition, error));
        return errors;
    }

    /**
     * The answer a node gave for each partition asked about ({@code answered}: what its response says, indexed once
     * per response); one it left unanswered is an unknown error.
     */
    static Map<TopicPartition, Errors> answersFor(Collection<TopicPartition> asked,
                                                  Map<TopicPartition, Errors> answered) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        asked.forEach(partition -> errors.put(partition,
                answered.getOrDefault(partition, Errors.UNKNOWN_SERVER_ERROR)));
        return errors;
    }
}
