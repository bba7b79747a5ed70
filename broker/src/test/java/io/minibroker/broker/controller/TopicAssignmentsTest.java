package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's side of ISR changes: a fenced broker leaves every ISR, no ISR is ever left empty, and an
 * AlterPartition naming a broker by an epoch that is not its current registration's is INELIGIBLE_REPLICA.
 */
class TopicAssignmentsTest {

    private static final List<Endpoint> LISTENERS = List.of(new Endpoint("PLAINTEXT", "localhost", 9092));

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_000);
    private final BrokerMembership membership = new BrokerMembership(9_000, now::get);
    private final Map<Integer, Long> brokerEpochs = new HashMap<>();
    private TopicAssignments assignments;

    @BeforeEach
    void start() throws Exception {
        for (int id = 0; id < 3; id++) {
            long epoch = membership.register(id, UUID.randomUUID(), LISTENERS).epoch();
            membership.heartbeat(id, epoch, false, false);
            brokerEpochs.put(id, epoch);
        }
        assignments = TopicAssignments.open(0, membership, dir);
        assertThat(assignments.create("t", 0, 0, List.of(List.of(0, 1, 2)), Map.of(), false).error()).isEqualTo(Errors.NONE);
    }

    @Test
    void aFencedFollowerLeavesTheIsrWithoutALeaderChange() {
        shutDown(2);
        assignments.electLeaders();

        PartitionImage partition = partition();
        assertThat(partition.isr()).containsExactly(0, 1);
        assertThat(partition.leader()).isZero();
        assertThat(partition.leaderEpoch()).as("the leader stays: same leader epoch").isZero();
    }

    @Test
    void aFencedLeaderIsReplacedAndTheLastFencedInSyncReplicaStaysInTheIsr() {
        shutDown(0);
        assignments.electLeaders();
        assertThat(partition().leader()).isEqualTo(1);
        assertThat(partition().leaderEpoch()).isEqualTo(1);
        assertThat(partition().isr()).containsExactly(1, 2);

        shutDown(1);
        shutDown(2);
        assignments.electLeaders();
        assertThat(partition().leader()).isEqualTo(TopicAssignments.NO_LEADER);
        assertThat(partition().isr()).as("never empty: the last leader stays").containsExactly(1);

        now.addAndGet(1);
        assignments.electLeaders();
        assertThat(partition().isr()).as("nothing changes while nobody returns").containsExactly(1);
    }

    @Test
    void anIsrNamingABrokerByAStaleEpochIsIneligible() {
        UUID topicId = assignments.image().topic("t").orElseThrow().id();
        long staleEpoch = brokerEpochs.get(2);
        shutDown(2);
        now.addAndGet(1);
        long newEpoch = membership.register(2, UUID.randomUUID(), LISTENERS).epoch(); // node 2 restarted
        membership.heartbeat(2, newEpoch, false, false);

        assertThat(alterIsr(topicId, 0, List.of(member(0), member(1), new TopicAssignments.IsrMember(2, staleEpoch))))
                .as("the broker that caught up is gone").isEqualTo(Errors.INELIGIBLE_REPLICA);
        assertThat(partition().isr()).containsExactly(0, 1, 2);

        assertThat(alterIsr(topicId, 0, List.of(member(0), member(1)))).isEqualTo(Errors.NONE);
        assertThat(alterIsr(topicId, 1, List.of(member(0), member(1), new TopicAssignments.IsrMember(2, newEpoch))))
                .isEqualTo(Errors.NONE);
        assertThat(partition().isr()).containsExactly(0, 1, 2);
        assertThat(alterIsr(topicId, 2, List.of(member(0), new TopicAssignments.IsrMember(1, -1))))
                .as("-1 asks for no check").isEqualTo(Errors.NONE);
    }

    private Errors alterIsr(UUID topicId, int partitionEpoch, List<TopicAssignments.IsrMember> isr) {
        return assignments.alterIsr(0, topicId, 0, 0, partitionEpoch, isr).error();
    }

    private TopicAssignments.IsrMember member(int id) {
        return new TopicAssignments.IsrMember(id, membership.epoch(id));
    }

    private void shutDown(int id) {
        membership.heartbeat(id, brokerEpochs.get(id), false, true);
    }

    private PartitionImage partition() {
        return assignments.image().topic("t").orElseThrow().partitions().get(0);
    }
}
