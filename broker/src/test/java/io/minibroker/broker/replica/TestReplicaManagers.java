package io.minibroker.broker.replica;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.admin.DelayedDeleteRecords;
import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.fetch.FetchHandler;
import io.minibroker.broker.metrics.BrokerTopicMetrics;
import io.minibroker.broker.produce.ProduceHandler;
import io.minibroker.broker.quota.ReplicationQuota;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;

import java.util.Map;

/** A node 0's ReplicaManager outside a cluster, for tests that hand it images themselves. */
final class TestReplicaManagers {

    private TestReplicaManagers() {
    }

    /**
     * Node 0's, over {@code topics}, asking the controller at {@code controllerPort} for ISR changes (checked every
     * half {@code replicaLagTimeMaxMs} of {@code clock}), with default fetcher settings and 1 s purgatories.
     */
    static ReplicaManager nodeZero(TopicRegistry topics, int controllerPort, long replicaLagTimeMaxMs,
                                   BrokerClock clock) {
        BrokerConfig config = BrokerConfig.of(Map.of());
        return nodeZero(topics, controllerPort, replicaLagTimeMaxMs, clock,
                ReplicationQuota.leader(config, topics::overrides, clock::monotonicMs),
                ReplicationQuota.follower(config, topics::overrides, clock::monotonicMs));
    }

    /** {@link #nodeZero(TopicRegistry, int, long, BrokerClock)} with these replication throttles. */
    static ReplicaManager nodeZero(TopicRegistry topics, int controllerPort, long replicaLagTimeMaxMs,
                                   BrokerClock clock, ReplicationQuota leaderQuota, ReplicationQuota followerQuota) {
        BrokerConfig config = BrokerConfig.of(Map.of());
        return new ReplicaManager(0, topics, ProduceHandler.newPurgatory(1000, clock.purgatoryClock()),
                FetchHandler.newPurgatory(1000, clock.purgatoryClock()),
                DelayedDeleteRecords.newPurgatory(1000, clock.purgatoryClock()),
                new ReplicaFetchers(0, () -> 1, FetcherSettings.of(config), ClientSecurity.NONE,
                        new BrokerTopicMetrics(new SimpleMeterRegistry()),
                        followerQuota, partition -> { }),
                new NodeChannel("localhost", controllerPort, "replica-manager-test", 10_000), replicaLagTimeMaxMs,
                9_000, 60_000, () -> 1, ReplicaSelector.LEADER,
                leaderQuota, clock);
    }
}
