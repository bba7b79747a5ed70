package io.minibroker.broker.api;

import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;

import java.util.function.Predicate;

/**
 * A leadership a test plays: this node leads the partitions {@code leads} accepts (asked anew each time, so a
 * test may change its mind), with {@code inSync} replicas in sync and no followers to hear from; its metadata names
 * {@code currentLeader} the leader of every partition (unknown unless a test says).
 */
public final class TestLeadership implements PartitionLeadership {

    private final Predicate<TopicPartition> leads;
    private final int inSync;
    private final CurrentLeader currentLeader;

    public TestLeadership(Predicate<TopicPartition> leads, int inSync) {
        this(leads, inSync, CurrentLeader.UNKNOWN);
    }

    public TestLeadership(Predicate<TopicPartition> leads, int inSync, CurrentLeader currentLeader) {
        this.leads = leads;
        this.inSync = inSync;
        this.currentLeader = currentLeader;
    }

    @Override
    public CurrentLeader currentLeader(TopicPartition partition, String listener) {
        return currentLeader;
    }

    @Override
    public boolean isLeader(TopicPartition partition) {
        return leads.test(partition);
    }

    @Override
    public int leaderEpoch(TopicPartition partition) {
        return 0;
    }

    @Override
    public int inSyncReplicas(TopicPartition partition) {
        return inSync;
    }

    @Override
    public int replicaCount(TopicPartition partition) {
        return inSync; // every replica in sync
    }

    @Override
    public void onFollowerFetch(TopicPartition partition, int replicaId, long replicaEpoch, long fetchOffset,
                                long logStartOffset) {
    }

    @Override
    public long lowWatermark(PartitionLog log) {
        return log.logStartOffset();
    }

    @Override
    public void onLeaderAppend(TopicPartition partition) {
    }
}
