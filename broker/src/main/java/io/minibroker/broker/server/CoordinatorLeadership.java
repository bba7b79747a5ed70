package io.minibroker.broker.server;

import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.replica.ReplicaManager;
import io.minibroker.broker.transaction.TransactionCoordinator;
import io.minibroker.broker.transaction.TransactionStateTopic;

/**
 * Tells a cluster broker's coordinators which partitions of their topics it leads, as Kafka's
 * onLeadershipChange does: the group coordinator hears of every partition (it keeps those of
 * {@code __consumer_offsets}), the transaction coordinator of {@code __transaction_state}'s.
 */
final class CoordinatorLeadership implements ReplicaManager.LeadershipListener {

    private final GroupCoordinator groups;
    private final TransactionCoordinator transactions;

    CoordinatorLeadership(GroupCoordinator groups, TransactionCoordinator transactions) {
        this.groups = groups;
        this.transactions = transactions;
    }

    @Override
    public void onLeading(TopicPartition partition, int leaderEpoch) {
        groups.onLeading(partition, leaderEpoch);
        if (partition.topic().equals(TransactionStateTopic.NAME)) {
            transactions.onLeading(partition.partition(), leaderEpoch);
        }
    }

    @Override
    public void onResigned(TopicPartition partition) {
        groups.onResigned(partition);
        if (partition.topic().equals(TransactionStateTopic.NAME)) {
            transactions.onResigned(partition.partition());
        }
    }
}
