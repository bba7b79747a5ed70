package io.minibroker.broker.quorum;

import io.minibroker.broker.config.Endpoint;

import java.util.List;
import java.util.UUID;

/**
 * What DescribeQuorum reports of the metadata quorum. This broker has no Raft quorum: one controller (a single node
 * is its own) leads, alone a voter, with no election ever held, so the leader epoch is always 1. Its offsets are the
 * image version brokers fetch (their fetch offset, see {@code controller/ImageVersion}), the nearest thing to
 * Kafka's metadata log offsets; a single node has no image fetched by anyone, so its offsets are 0.
 *
 * @param leaderListeners the leader's endpoints, the Nodes of DescribeQuorum v2
 */
public record QuorumReport(int leaderId, long highWatermark, List<Replica> voters, List<Replica> observers,
                           List<Endpoint> leaderListeners) {

    /** The one leader epoch: no election is ever held. */
    public static final int LEADER_EPOCH = 1;

    /**
     * A replica of the metadata: its id and directory id ({@link ReplicaKey#NO_DIRECTORY} for none), how far it has
     * got, when it last fetched and when it last was caught up, in wall-clock milliseconds.
     */
    public record Replica(int replicaId, UUID directoryId, long logEndOffset, long lastFetchMs, long lastCaughtUpMs) {
    }

    /**
     * A leader alone: itself a voter, known to the quorum as {@code leader}, at the high watermark, fetching and
     * caught up now, and these observers.
     */
    public static QuorumReport leaderAlone(ReplicaKey leader, long highWatermark, long nowMs, List<Replica> observers,
                                           List<Endpoint> leaderListeners) {
        return new QuorumReport(leader.id(), highWatermark, List.of(new Replica(leader.id(), leader.directoryId(),
                highWatermark, nowMs, nowMs)), observers, leaderListeners);
    }
}
