package io.minibroker.broker.admin;

import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopic;

import java.util.Collection;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * Kafka's bound on the partitions one admin request may create. Its controller writes at most 10,000 records for
 * one user operation ({@code QuorumController.MAX_RECORDS_PER_USER_OP}), one per new partition, and refuses a
 * bigger request whole with POLICY_VIOLATION before building any of it. Here it also keeps a request for
 * 2<sup>31</sup> partitions from having a broker create that many logs.
 */
public final class PartitionsPerRequest {

    public static final int MAX = 10_000;
    /** Kafka's message when a CreateTopics request asks for more in all. */
    public static final String TOO_MANY_FOR_CREATE_TOPICS = "Excessively large number of partitions per request.";
    /** Kafka's message when a CreatePartitions request adds more in all. */
    public static final String TOO_MANY_FOR_CREATE_PARTITIONS = "Unable to perform excessively large batch operation.";

    private PartitionsPerRequest() {
    }

    /**
     * Whether CreateTopics' topics ask for more than {@link #MAX} partitions in all, counted as Kafka counts them:
     * a topic's assignments if it has any, else its count, {@code defaultPartitions} for -1, nothing for a count
     * that is invalid anyway.
     */
    public static boolean tooManyToCreate(Collection<CreatableTopic> topics, int defaultPartitions) {
        long total = 0;
        for (CreatableTopic topic : topics) {
            int count = topic.numPartitions();
            if (!topic.assignments().isEmpty()) {
                total += topic.assignments().size();
            } else if (count == -1) {
                total += defaultPartitions;
            } else if (count > 0) {
                total += count;
            }
        }
        return total > MAX;
    }

    /**
     * Whether CreatePartitions' topics add more than {@link #MAX} partitions in all to the topics that exist;
     * {@code currentCount} gives a topic's partition count, or -1 if there is no such topic.
     */
    public static boolean tooManyToAdd(List<CreatePartitionsTopic> topics, ToIntFunction<String> currentCount) {
        long total = 0;
        for (CreatePartitionsTopic topic : topics) {
            int current = currentCount.applyAsInt(topic.name());
            if (current >= 0) {
                total += Math.max(0L, (long) topic.count() - current);
            }
        }
        return total > MAX;
    }
}
