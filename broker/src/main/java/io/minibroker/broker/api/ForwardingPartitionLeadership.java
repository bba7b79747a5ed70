package io.minibroker.broker.api;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;


/**
 * A {@link PartitionLeadership} that hands every question and event to another one, for a leadership that adds to
 * a few of them: a subclass overrides only those. Each method forwards, the interface's defaults too, so that what
 * the wrapped leadership answers in its own way (which replicas it hosts, an epoch check read from one state) is
 * what the wrapper answers, never the default recomputed from the wrapper's other answers.
 */
public abstract class ForwardingPartitionLeadership implements PartitionLeadership {

    private final PartitionLeadership delegate;

    protected ForwardingPartitionLeadership(PartitionLeadership delegate) {
        this.delegate = delegate;
    }

    @Override
    public CurrentLeader currentLeader(TopicPartition partition, String listener) {
        return delegate.currentLeader(partition, listener);
    }

    @Override
    public int preferredReadReplica(TopicPartition partition, String clientRack, String listener, long fetchOffset) {
        return delegate.preferredReadReplica(partition, clientRack, listener, fetchOffset);
    }

    @Override
    public boolean throttlesFollowerFetch(TopicPartition partition, int replicaId) {
        return delegate.throttlesFollowerFetch(partition, replicaId);
    }

    @Override
    public boolean isLeaderThrottled(TopicPartition partition) {
        return delegate.isLeaderThrottled(partition);
    }

    @Override
    public void answeredFollower(long throttledBytes) {
        delegate.answeredFollower(throttledBytes);
    }

    @Override
    public boolean isLeader(TopicPartition partition) {
        return delegate.isLeader(partition);
    }

    @Override
    public boolean hostsReplica(TopicPartition partition) {
        return delegate.hostsReplica(partition);
    }

    @Override
    public int leaderEpoch(TopicPartition partition) {
        return delegate.leaderEpoch(partition);
    }

    @Override
    public int inSyncReplicas(TopicPartition partition) {
        return delegate.inSyncReplicas(partition);
    }

    @Override
    public int replicaCount(TopicPartition partition) {
        return delegate.replicaCount(partition);
    }

    @Override
    public int effectiveMinIsr(TopicPartition partition, int minInsync) {
        return delegate.effectiveMinIsr(partition, minInsync);
    }

    @Override
    public boolean isUnderMinIsr(TopicPartition partition, int minInsync) {
        return delegate.isUnderMinIsr(partition, minInsync);
    }

    @Override
    public boolean hasFollower(TopicPartition partition, int replicaId) {
        return delegate.hasFollower(partition, replicaId);
    }

    @Override
    public void onFollowerFetch(TopicPartition partition, int replicaId, long replicaEpoch, long fetchOffset,
                                long logStartOffset) {
        delegate.onFollowerFetch(partition, replicaId, replicaEpoch, fetchOffset, logStartOffset);
    }

    @Override
    public long lowWatermark(PartitionLog log) {
        return delegate.lowWatermark(log);
    }

    @Override
    public void onLeaderAppend(TopicPartition partition) {
        delegate.onLeaderAppend(partition);
    }

    @Override
    public LogException appendRefusal(TopicPartition partition, int minInsync) {
        return delegate.appendRefusal(partition, minInsync);
    }

    @Override
    public Errors checkLeaderEpoch(TopicPartition partition, int currentEpoch, boolean requireLeader) {
        return delegate.checkLeaderEpoch(partition, currentEpoch, requireLeader);
    }
}
