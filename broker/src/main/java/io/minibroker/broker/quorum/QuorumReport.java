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
     * A voter's directory id: none, the zero id, as a static quorum ({@code controller.quorum.voters}, kraft.version
     * 0) knows its voters by their ids alone. What DescribeQuorum shows, and what AddRaftVoter and RemoveRaftVoter,
     * as Kafka's, take for no voter at all.
     */
    public static final UUID NO_DIRECTORY = new UUID(0, 0);

    /**
     * A replica of the metadata: its id, how far it has got, when it last fetched and when it last was caught up,
     * in wall-clock milliseconds.
     */
    public record Replica(int replicaId, long logEndOffset, long lastFetchMs, long lastCaughtUpMs) {
    }

    /** A leader alone: itself a voter at the high watermark, fetching and caught up now, and these observers. */
    public static QuorumReport leaderAlone(int leaderId, long highWatermark, long nowMs, List<Replica> observers,
                                           List<Endpoint> leaderListeners) {
        return new QuorumReport(leaderId, highWatermark, List.of(new Replica(leaderId, highWatermark, nowMs, nowMs)),
                observers, leaderListeners);
    }
}
