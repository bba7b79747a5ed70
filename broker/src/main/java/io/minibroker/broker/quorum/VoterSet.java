package io.minibroker.broker.quorum;

import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.feature.FinalizedFeatures;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The quorum's voters as their leader knows them: one, this node (a single node, or a cluster's controller; see
 * {@link QuorumReport}), known as the finalized {@code kraft.version} has a Kafka 4.3.1 quorum formatted with
 * {@code controller.quorum.voters} know it. At kraft.version 0 (a static quorum) by its id alone; once kraft.version 1
 * is finalized (KIP-853), by its id and the directory id of its metadata log directory (the first log directory's
 * {@code meta.properties}, as Kafka's {@code metadata.log.dir} defaults to it), as Kafka's leader writes its voters
 * when the feature is upgraded. The level is read at each use: an UpdateFeatures changes it at once, and the finalized
 * features persist across a restart.
 */
public final class VoterSet {

    private final int leaderId;
    private final UUID leaderDirectoryId;
    private final FinalizedFeatures features;
    private final AtomicBoolean changePending = new AtomicBoolean();

    public VoterSet(int leaderId, UUID leaderDirectoryId, FinalizedFeatures features) {
        this.leaderId = leaderId;
        this.leaderDirectoryId = leaderDirectoryId;
        this.features = features;
    }

    /** The finalized kraft.version: 0 for a static quorum, 1 for one whose voters can be added and removed. */
    short kraftVersion() {
        return features.level(Feature.KRAFT_VERSION);
    }

    /** The leader, the one voter, as the quorum at {@code kraftVersion} knows it. */
    ReplicaKey leader(short kraftVersion) {
        return new ReplicaKey(leaderId, kraftVersion == 0 ? ReplicaKey.NO_DIRECTORY : leaderDirectoryId);
    }

    /** The leader as the quorum knows it now. */
    public ReplicaKey leader() {
        return leader(kraftVersion());
    }

    /** Whether a change of the voters is under way: every other change is refused until it ends. */
    boolean changePending() {
        return changePending.get();
    }

    /** Starts a change of the voters; false if one is under way already. */
    boolean beginChange() {
        return changePending.compareAndSet(false, true);
    }

    /** Ends the change under way. */
    void endChange() {
        changePending.set(false);
    }
}
