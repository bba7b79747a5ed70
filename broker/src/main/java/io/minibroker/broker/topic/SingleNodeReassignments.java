package io.minibroker.broker.topic;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Partition reassignment on a single node: the node is the only registered broker and every partition's only
 * replica, so the one target Kafka's checks let through is the node itself, which is where the partition already
 * is: the move completes at once, and none is ever in progress.
 */
public final class SingleNodeReassignments implements ReassignableTopics {

    private final TopicRegistry topics;
    private final int nodeId;

    public SingleNodeReassignments(TopicRegistry topics, int nodeId) {
        this.topics = topics;
        this.nodeId = nodeId;
    }

    @Override
    public Outcome reassign(String topic, int partition, List<Integer> target, boolean allowReplicationFactorChange) {
        TopicMetadata metadata = topics.get(topic).orElse(null);
        if (metadata == null) {
            return Outcome.noSuchTopic(topic);
        }
        if (!metadata.hasPartition(partition)) {
            return Outcome.noSuchPartition(topic, partition);
        }
        if (target == null) {
            return Outcome.NOTHING_TO_CANCEL;
        }
        Outcome refused = ReassignableTopics.refusal(target, Set.of(nodeId), 1, allowReplicationFactorChange);
        return refused != null ? refused : Outcome.DONE;
    }

    @Override
    public Map<Integer, Ongoing> ongoing(String topic, List<Integer> partitions) {
        return Map.of();
    }

    @Override
    public Map<String, Map<Integer, Ongoing>> ongoingAll() {
        return new LinkedHashMap<>();
    }
}
