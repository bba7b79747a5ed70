package io.minibroker.broker.share;

import io.minibroker.broker.api.LeaderHints;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;

import java.util.Optional;
import java.util.UUID;

/** Finds the log behind a share partition, or the error a share request answers for it. */
public final class ShareLogs {

    /** The log, or the error when there is none here to read (unknown topic id or partition, not the leader). */
    public record Resolved(PartitionLog log, Errors error) {
    }

    private final TopicRegistry topics;
    private final PartitionLeadership leadership;

    public ShareLogs(TopicRegistry topics, PartitionLeadership leadership) {
        this.topics = topics;
        this.leadership = leadership;
    }

    public Resolved resolve(UUID topicId, int partition) {
        Optional<TopicMetadata> topic = topics.resolve(true, null, topicId);
        Optional<PartitionLog> log = topic.flatMap(t -> topics.partitionLog(t, partition))
                .filter(l -> leadership.isLeader(l.topicPartition()));
        if (log.isPresent()) {
            return new Resolved(log.get(), Errors.NONE);
        }
        return new Resolved(null, topics.partitionNotHere(true, null, topicId, partition));
    }

    /** The partition of a topic this broker knows (its own or the cluster image's) by id; empty for an unknown id. */
    Optional<TopicPartition> partitionOf(UUID topicId, int partition) {
        return topics.known(topicId).map(topic -> new TopicPartition(topic.name(), partition));
    }

    /** The KIP-951 hints of one answer, naming leaders on {@code listener}. */
    LeaderHints leaderHints(String listener) {
        return new LeaderHints(leadership, listener);
    }
}
