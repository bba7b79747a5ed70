package io.minibroker.broker.server;

import io.minibroker.broker.control.ReplicaFaults;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.replica.ReplicaManager;

import java.time.Duration;
import java.util.List;

/**
 * The controls' view of a cluster node's replication: here, because the replica manager may not know the controls
 * (the controls know the group coordinator, which knows the replica manager).
 */
final class ReplicationControls implements ReplicaFaults {

    private final ReplicaManager replicas;

    ReplicationControls(ReplicaManager replicas) {
        this.replicas = replicas;
    }

    @Override
    public List<Integer> shrinkIsr(String topic, int partition, int node) throws InterruptedException {
        return replicas.holdOutOfIsr(new TopicPartition(topic, partition), node);
    }

    @Override
    public List<Integer> growIsr(String topic, int partition, int node) throws InterruptedException {
        return replicas.releaseToIsr(new TopicPartition(topic, partition), node);
    }

    @Override
    public void lagFollower(String topic, int partition) {
        replicas.fetchers().pause(topic, partition);
    }

    @Override
    public void resumeFollower(String topic, int partition) {
        replicas.fetchers().resume(topic, partition);
    }

    @Override
    public void slowFollower(String topic, int partition, Duration delay) {
        replicas.fetchers().slow(topic, partition, delay);
    }

    @Override
    public void clear() {
        replicas.fetchers().resume(null, -1);
        replicas.fetchers().slow(null, -1, Duration.ZERO);
        replicas.releaseAllFromIsrHolds();
    }
}
