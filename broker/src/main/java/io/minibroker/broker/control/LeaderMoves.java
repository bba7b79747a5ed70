package io.minibroker.broker.control;

import io.minibroker.broker.topic.ElectableTopics.ElectionResult;

/** What the controls ask of a cluster's controller to move leaders (its topic assignments implement it). */
public interface LeaderMoves {

    /** Makes {@code node} lead the partition if it may (a live ISR member); the outcome says whether it did. */
    ElectionResult moveLeader(String topic, int partition, int node);

    /** A topic's partition count, or -1 if there is no such topic. */
    int partitionCount(String topic);
}
