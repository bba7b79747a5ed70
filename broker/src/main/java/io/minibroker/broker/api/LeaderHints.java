package io.minibroker.broker.api;

import io.minibroker.broker.api.PartitionLeadership.CurrentLeader;
import io.minibroker.broker.log.TopicPartition;

import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * KIP-951's hints in one Produce (v10+) or Fetch (v16+) answer: each partition refused because another node leads
 * it is told that leader and its epoch, and the answer lists each such leader's endpoint once (NodeEndpoints), on the
 * listener the request came in on, as Kafka's KafkaApis fills them.
 */
public final class LeaderHints {

    private final PartitionLeadership leadership;
    private final String listener;
    private final Map<Integer, CurrentLeader> endpoints = new TreeMap<>();

    public LeaderHints(PartitionLeadership leadership, String listener) {
        this.leadership = leadership;
        this.listener = listener;
    }

    /** The partition's current leader; its endpoint, if known, joins {@link #writeEndpoints}. */
    public CurrentLeader leaderOf(TopicPartition partition) {
        CurrentLeader leader = leadership.currentLeader(partition, listener);
        if (leader.hasEndpoint()) {
            endpoints.putIfAbsent(leader.leaderId(), leader);
        }
        return leader;
    }

    /** Writes each leader named so far that has an endpoint, by node id, into the answer's NodeEndpoints. */
    public void writeEndpoints(Consumer<CurrentLeader> nodeEndpoint) {
        endpoints.values().forEach(nodeEndpoint);
    }
}
