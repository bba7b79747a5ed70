package io.minibroker.broker.controller;

import io.minibroker.broker.cluster.ClusterMetadata.PartitionImage;
import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.topic.ElectableTopics;
import io.minibroker.broker.topic.ElectableTopics.ElectionResult;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.broker.topic.ReassignableTopics;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static io.minibroker.broker.topic.ElectableTopics.Type.PREFERRED;
import static io.minibroker.broker.topic.ElectableTopics.Type.UNCLEAN;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The controller's side of ISR changes: a fenced broker leaves every ISR, no ISR is ever left empty, and an
 * AlterPartition naming a broker by an epoch that is not its current registration's is INELIGIBLE_REPLICA. And its
 * leader elections on request (ElectLeaders) and by the automatic rebalance. And partition reassignment's steps.
 */
class TopicAssignmentsTest {

    private static final List<Endpoint> LISTENERS = List.of(new Endpoint("PLAINTEXT", "localhost", 9092));

    @TempDir
    Path dir;

    private final AtomicLong now = new AtomicLong(1_000);
    private final BrokerMembership membership = new BrokerMembership(9_000, now::get, () -> 0,
            id -> Long.MAX_VALUE, () -> { }); // whatever a broker reports, its fetches vouch for
    private final Map<Integer, Long> brokerEpochs = new HashMap<>();
    private TopicAssignments assignments;

    @BeforeEach
    void start() throws Exception {
        for (int id = 0; id < 3; id++) {
            long epoch = membership.register(id, UUID.randomUUID(), LISTENERS, null).epoch();
            membership.heartbeat(id, epoch, 0, false, false);
            brokerEpochs.put(id, epoch);
        }
        assignments = TopicAssignments.open(membership, dir, () -> { });
        assertThat(assignments.create("t", manual(List.of(List.of(0, 1, 2))), Map.of(), false).error()).isEqualTo(Errors.NONE);
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
    void aControlledShutdownMovesOnlyTheStoppingBrokersPartitions() {
        assertThat(assignments.create("u", manual(List.of(List.of(1, 0), List.of(2, 0))), Map.of(), false).error())
                .isEqualTo(Errors.NONE);
        shutDown(2); // fenced, its partitions left to the next fencing check
        shutDown(1);
        assignments.electLeadersAwayFrom(1);

        assertThat(leaderOf("u", 0)).as("node 1's partition moves").isZero();
        assertThat(partition().isr()).as("node 1 leaves the ISR it follows in").containsExactly(0);
        assertThat(leaderOf("u", 1)).as("node 2's partition waits for the fencing check").isEqualTo(2);

        assignments.electLeaders();
        assertThat(leaderOf("u", 1)).isZero();
    }

    @Test
    void anIsrNamingABrokerByAStaleEpochIsIneligible() {
        UUID topicId = assignments.image().topic("t").orElseThrow().id();
        long staleEpoch = brokerEpochs.get(2);
        shutDown(2);
        now.addAndGet(1);
        long newEpoch = membership.register(2, UUID.randomUUID(), LISTENERS, null).epoch(); // node 2 restarted
        membership.heartbeat(2, newEpoch, 0, false, false);

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

    @Test
    void aPreferredElectionWaitsForTheFirstReplicaToBeLiveAndInSync() throws Exception {
        UUID topicId = assignments.image().topic("t").orElseThrow().id();
        assertThat(elect(PREFERRED, 0)).isEqualTo(ElectionResult.NOT_NEEDED);

        long staleEpoch = brokerEpochs.get(0);
        shutDown(0);
        assignments.electLeaders();
        assertThat(partition().leader()).isEqualTo(1);
        assertThat(elect(PREFERRED, 0).error()).as("node 0 is fenced").isEqualTo(Errors.PREFERRED_LEADER_NOT_AVAILABLE);
        assertThat(elect(PREFERRED, 0).message()).isEqualTo("The preferred leader was not available.");

        now.addAndGet(1);
        long newEpoch = membership.register(0, UUID.randomUUID(), LISTENERS, null).epoch(); // node 0 restarted
        membership.heartbeat(0, newEpoch, 0, false, false);
        assertThat(newEpoch).isNotEqualTo(staleEpoch);
        assertThat(elect(PREFERRED, 0).error()).as("live, but not yet back in the ISR")
                .isEqualTo(Errors.PREFERRED_LEADER_NOT_AVAILABLE);

        assertThat(assignments.alterIsr(1, topicId, 0, 1, -1, List.of(member(1), member(2), member(0))).error())
                .isEqualTo(Errors.NONE);
        assertThat(elect(PREFERRED, 0)).isEqualTo(ElectionResult.ELECTED);
        assertThat(partition().leader()).isZero();
        assertThat(partition().leaderEpoch()).as("a new leader, a new leader epoch").isEqualTo(2);
        assertThat(partition().isr()).as("a clean election leaves the ISR as it was").containsExactly(1, 2, 0);
        assertThat(elect(PREFERRED, 0)).isEqualTo(ElectionResult.NOT_NEEDED);

        PartitionImage saved = TopicAssignments.open(membership, dir, () -> { }).image().topic("t").orElseThrow()
                .partitions().get(0);
        assertThat(saved.leader()).as("saved before it is in the image").isZero();
        assertThat(saved.leaderEpoch()).isEqualTo(2);
    }

    @Test
    void unknownTopicsAndPartitionsAreAnsweredAsKafkasController() {
        assertThat(assignments.elect(PREFERRED, "nope", List.of(0)))
                .containsExactly(new ElectionResult(Errors.UNKNOWN_TOPIC_OR_PARTITION, "No such topic as nope"));
        assertThat(assignments.elect(PREFERRED, "t", List.of(1, -1, 0))).containsExactly(
                new ElectionResult(Errors.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as t-1"),
                new ElectionResult(Errors.UNKNOWN_TOPIC_OR_PARTITION, "No such partition as t--1"),
                ElectionResult.NOT_NEEDED);
    }

    @Test
    void electingEveryPartitionListsEveryTopicButOnlyThePartitionsThatNeededOne() {
        assertThat(assignments.create("u", manual(List.of(List.of(1, 0), List.of(2, 0))), Map.of(), false).error())
                .isEqualTo(Errors.NONE);
        shutDown(1);
        assignments.electLeaders(); // u-0 moves to node 0; t-0 and u-1 keep theirs
        membership.heartbeat(1, brokerEpochs.get(1), 0, false, false); // node 1 unfenced again, but out of the ISRs

        assertThat(assignments.electAll(PREFERRED)).isEqualTo(Map.of("t", Map.of(),
                "u", Map.of(0, new ElectionResult(Errors.PREFERRED_LEADER_NOT_AVAILABLE,
                        "The preferred leader was not available."))));
    }

    @Test
    void theRebalanceGivesEachPartitionBackToItsFirstReplicaOnceItIsInSync() {
        assertThat(assignments.create("u", manual(List.of(List.of(1, 0), List.of(2, 0))), Map.of(), false).error())
                .isEqualTo(Errors.NONE);
        UUID topicId = assignments.image().topic("u").orElseThrow().id();
        shutDown(1);
        assignments.electLeaders();
        assertThat(leaderOf("u", 0)).isZero();

        assertThat(assignments.balanceLeaders()).as("node 1 is fenced").isZero();
        membership.heartbeat(1, brokerEpochs.get(1), 0, false, false);
        assertThat(assignments.balanceLeaders()).as("node 1 is live but not in the ISR").isZero();
        assertThat(assignments.alterIsr(0, topicId, 0, 1, -1, List.of(member(0), member(1))).error())
                .isEqualTo(Errors.NONE);
        assertThat(assignments.balanceLeaders()).isEqualTo(1);
        assertThat(leaderOf("u", 0)).isEqualTo(1);
        assertThat(leaderOf("u", 1)).isEqualTo(2);
        assertThat(assignments.balanceLeaders()).as("balanced").isZero();
    }

    @Test
    void aRebalanceWhoseSaveFailsMovesNoLeaderAndSaysSo() throws Exception {
        assertThat(assignments.create("u", manual(List.of(List.of(1, 0))), Map.of(), false).error())
                .isEqualTo(Errors.NONE);
        UUID topicId = assignments.image().topic("u").orElseThrow().id();
        shutDown(1);
        assignments.electLeaders();
        membership.heartbeat(1, brokerEpochs.get(1), 0, false, false);
        assertThat(assignments.alterIsr(0, topicId, 0, 1, -1, List.of(member(0), member(1))).error())
                .isEqualTo(Errors.NONE);
        // A directory where the store writes its temporary file: the save fails, as on a full disk.
        Files.createDirectories(dir.resolve(AssignmentStore.DIR).resolve("u.properties.tmp"));

        assertThat(assignments.balanceLeaders()).as("an election that could not be saved moved nothing").isZero();
        assertThat(leaderOf("u", 0)).isZero();
    }

    @Test
    void partitionsThatCannotMoveDoNotUseUpARebalanceRun() {
        List<List<Integer>> placement = new java.util.ArrayList<>();
        for (int i = 0; i < TopicAssignments.MAX_ELECTIONS_PER_BALANCE; i++) {
            placement.add(List.of(1, 0)); // preferring node 1, which stays down
        }
        for (int i = 0; i < 50; i++) {
            placement.add(List.of(2, 0)); // preferring node 2, which comes back
        }
        assertThat(assignments.create("v", manual(placement), Map.of(), false).error()).isEqualTo(Errors.NONE);
        UUID topicId = assignments.image().topic("v").orElseThrow().id();
        shutDown(1);
        shutDown(2);
        assignments.electLeaders();
        membership.heartbeat(2, brokerEpochs.get(2), 0, false, false);
        for (int i = TopicAssignments.MAX_ELECTIONS_PER_BALANCE; i < placement.size(); i++) {
            assertThat(assignments.alterIsr(0, topicId, i, 1, -1, List.of(member(0), member(2))).error())
                    .isEqualTo(Errors.NONE);
        }

        assertThat(assignments.balanceLeaders()).isEqualTo(50);
        assertThat(leaderOf("v", TopicAssignments.MAX_ELECTIONS_PER_BALANCE)).isEqualTo(2);
        assertThat(leaderOf("v", 0)).isZero();
    }

    @Test
    void anUncleanElectionOnlyGivesALeaderlessPartitionAnInSyncLeader() {
        assertThat(elect(UNCLEAN, 0)).as("it has a leader").isEqualTo(ElectionResult.NOT_NEEDED);
        shutDown(0);
        assignments.electLeaders();
        shutDown(1);
        assignments.electLeaders();
        shutDown(2);
        assignments.electLeaders();
        assertThat(partition().leader()).isEqualTo(TopicAssignments.NO_LEADER);
        assertThat(partition().isr()).containsExactly(2);

        assertThat(elect(UNCLEAN, 0)).isEqualTo(new ElectionResult(Errors.ELIGIBLE_LEADERS_NOT_AVAILABLE,
                "Eligible topic partition leaders are not available."));
        membership.heartbeat(0, brokerEpochs.get(0), 0, false, false); // back, but it left the ISR
        assertThat(elect(UNCLEAN, 0).message()).as("no unclean election is offered")
                .contains("only in-sync replicas may lead");
        assertThat(partition().leader()).isEqualTo(TopicAssignments.NO_LEADER);
    }

    @Test
    void refusesAlterPartitionWithKafkasCodes() {
        UUID topicId = assignments.image().topic("t").orElseThrow().id();
        List<TopicAssignments.IsrMember> isr = List.of(member(0), member(1));

        assertThat(assignments.alterIsr(0, topicId, 0, 1, 0, isr).error()).as("a newer leader epoch")
                .isEqualTo(Errors.NOT_CONTROLLER);
        assertThat(assignments.alterIsr(0, topicId, 0, 0, 1, isr).error()).as("a newer partition epoch")
                .isEqualTo(Errors.NOT_CONTROLLER);
        assertThat(assignments.alterIsr(1, topicId, 0, 0, 0, List.of(member(0), member(1))).error())
                .as("not the leader").isEqualTo(Errors.INVALID_REQUEST);
        assertThat(alterIsr(topicId, 0, List.of(member(0), member(0), member(1)))).as("a broker twice")
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(alterIsr(topicId, 0, List.of(member(0), new TopicAssignments.IsrMember(7, -1))))
                .as("not a replica").isEqualTo(Errors.INVALID_REQUEST);
        shutDown(0);
        assertThat(alterIsr(topicId, 0, isr)).as("the leader is fenced").isEqualTo(Errors.INELIGIBLE_REPLICA);
        assertThat(partition().isr()).containsExactly(0, 1, 2);
    }

    @Test
    void anAlterPartitionThatChangesNothingKeepsThePartitionEpoch() {
        UUID topicId = assignments.image().topic("t").orElseThrow().id();

        TopicAssignments.IsrChange change = assignments.alterIsr(0, topicId, 0, 0, 0,
                List.of(member(0), member(1), member(2)));
        assertThat(change.error()).isEqualTo(Errors.NONE);
        assertThat(change.partitionEpoch()).isZero();
        assertThat(alterIsr(topicId, 0, List.of(member(0), member(1)))).as("still at epoch 0").isEqualTo(Errors.NONE);
    }

    @Test
    void placesReplicasOnFencedBrokersTooButLetsOnlyLiveOnesLeadOrBeInSync() {
        shutDown(2);

        assertThat(assignments.create("auto", counts(3, 3), Map.of(), false).error())
                .as("three registered brokers, one fenced").isEqualTo(Errors.NONE);
        for (PartitionImage partition : assignments.image().topic("auto").orElseThrow().partitions()) {
            assertThat(partition.replicas()).containsExactlyInAnyOrder(0, 1, 2);
            assertThat(partition.leader()).isIn(0, 1);
            assertThat(partition.isr()).containsExactlyInAnyOrder(0, 1);
        }
        assertThat(assignments.create("manual", manual(List.of(List.of(2, 1))), Map.of(), false).error())
                .isEqualTo(Errors.NONE);
        PartitionImage manual = assignments.image().topic("manual").orElseThrow().partitions().get(0);
        assertThat(manual.leader()).isEqualTo(1);
        assertThat(manual.isr()).containsExactly(1);
        assertThat(assignments.create("fenced", manual(List.of(List.of(2))), Map.of(), false).error())
                .as("no live replica to lead").isEqualTo(Errors.INVALID_REPLICA_ASSIGNMENT);
        assertThat(assignments.create("four", counts(1, 4), Map.of(), false).error())
                .isEqualTo(Errors.INVALID_REPLICATION_FACTOR);
    }

    @Test
    void addedPartitionsGoOnWithTheTopicsStripe() {
        assertThat(assignments.create("grow", counts(2, 1), Map.of(), false).error()).isEqualTo(Errors.NONE);
        List<PartitionImage> before = assignments.image().topic("grow").orElseThrow().partitions();
        int lastLeader = before.get(1).replicas().get(0);

        assertThat(assignments.addPartitions("grow", 4, null, false, added -> true).error()).isEqualTo(Errors.NONE);
        List<PartitionImage> after = assignments.image().topic("grow").orElseThrow().partitions();
        assertThat(after.get(2).replicas()).containsExactly((lastLeader + 1) % 3);
        assertThat(after.get(3).replicas()).containsExactly((lastLeader + 2) % 3);
    }

    private ElectionResult elect(ElectableTopics.Type type, int partition) {
        return assignments.elect(type, "t", List.of(partition)).get(0);
    }

    private int leaderOf(String topic, int partition) {
        return assignments.image().topic(topic).orElseThrow().partitions().get(partition).leader();
    }

    @Test
    void aNewOrderOrFewerReplicasCompleteAtOnceAndAReplicationFactorChangeNeedsLeave() {
        assertThat(assignments.reassign("t", 0, List.of(2, 1, 0), false).error()).isEqualTo(Errors.NONE);
        assertThat(partition().replicas()).containsExactly(2, 1, 0);
        assertThat(partition().reassigning()).isFalse();
        assertThat(partition().leader()).as("a new order elects nobody").isZero();
        assertThat(partition().leaderEpoch()).isZero();

        ReassignableTopics.Outcome refused = assignments.reassign("t", 0, List.of(2, 1), false);
        assertThat(refused.error()).isEqualTo(Errors.INVALID_REPLICATION_FACTOR);
        assertThat(refused.message()).isEqualTo("The replication factor is changed from 3 to 2");

        assertThat(assignments.reassign("t", 0, List.of(2, 1), true).error()).isEqualTo(Errors.NONE);
        assertThat(partition().replicas()).containsExactly(2, 1);
        assertThat(partition().isr()).containsExactlyInAnyOrder(1, 2);
        assertThat(partition().leader()).as("the leader left: the first replica in sync leads").isEqualTo(2);
        assertThat(partition().leaderEpoch()).isEqualTo(1);
        assertThat(assignments.ongoingAll()).isEmpty();
    }

    @Test
    void aMoveToFewerReplicasWaitsForEveryTargetReplicaInSyncAsKafkas() {
        UUID topicId = assignments.image().topic("t").orElseThrow().id();
        assertThat(alterIsr(topicId, 0, List.of(member(0), member(2)))).as("node 1 lags").isEqualTo(Errors.NONE);

        assertThat(assignments.reassign("t", 0, List.of(0, 1), true).error()).isEqualTo(Errors.NONE);
        assertThat(partition().reassigning()).as("node 2, in sync, is kept while node 1 lags").isTrue();
        assertThat(partition().isr()).containsExactly(0, 2);

        // Partition epoch 2: the ISR change and the reassignment each moved it on.
        assertThat(alterIsr(topicId, 2, List.of(member(0), member(2), member(1)))).isEqualTo(Errors.NONE);
        assertThat(partition().reassigning()).isFalse();
        assertThat(partition().replicas()).containsExactly(0, 1);
        assertThat(partition().isr()).containsExactlyInAnyOrder(0, 1);
    }

    @Test
    void aMoveWaitsForItsNewcomerInTheIsrOutlivesAReopenAndCompletesThere() throws Exception {
        assertThat(assignments.create("m", manual(List.of(List.of(0))), Map.of(), false).error()).isEqualTo(Errors.NONE);
        assertThat(assignments.reassign("m", 0, List.of(1), true).error()).isEqualTo(Errors.NONE);
        ReassignableTopics.Ongoing ongoing = new ReassignableTopics.Ongoing(List.of(1, 0), List.of(1), List.of(0));
        assertThat(assignments.ongoing("m", List.of(0, 1))).isEqualTo(Map.of(0, ongoing));

        assignments = TopicAssignments.open(membership, dir, () -> { });
        assertThat(assignments.ongoingAll()).isEqualTo(Map.of("m", Map.of(0, ongoing)));
        UUID id = assignments.image().topic("m").orElseThrow().id();
        TopicAssignments.IsrChange change = assignments.alterIsr(0, id, 0, 0, -1, List.of(member(0), member(1)));

        assertThat(change.error()).as("the leader left with the move").isEqualTo(Errors.NEW_LEADER_ELECTED);
        PartitionImage moved = assignments.image().topic("m").orElseThrow().partitions().get(0);
        assertThat(moved.replicas()).containsExactly(1);
        assertThat(moved.isr()).containsExactly(1);
        assertThat(moved.leader()).isEqualTo(1);
        assertThat(moved.leaderEpoch()).isEqualTo(1);
        assertThat(moved.reassigning()).isFalse();
    }

    @Test
    void aCancelTakesTheNewcomersOutAndNothingToCancelIsSaidSo() {
        assertThat(assignments.create("m", manual(List.of(List.of(0))), Map.of(), false).error()).isEqualTo(Errors.NONE);
        assertThat(assignments.reassign("m", 0, null, true)).isEqualTo(ReassignableTopics.Outcome.NOTHING_TO_CANCEL);
        assertThat(assignments.reassign("m", 0, List.of(1, 2), true).error()).isEqualTo(Errors.NONE);
        assertThat(assignments.reassign("m", 0, List.of(1, 7), true).message())
                .isEqualTo("The manual partition assignment includes broker 7, but no such broker is registered.");

        assertThat(assignments.reassign("m", 0, null, true).error()).isEqualTo(Errors.NONE);
        PartitionImage reverted = assignments.image().topic("m").orElseThrow().partitions().get(0);
        assertThat(reverted.replicas()).containsExactly(0);
        assertThat(reverted.reassigning()).isFalse();
        assertThat(reverted.leader()).isZero();
        assertThat(reverted.leaderEpoch()).as("replicas left: a new leader epoch, as Kafka's").isEqualTo(1);
    }

    private Errors alterIsr(UUID topicId, int partitionEpoch, List<TopicAssignments.IsrMember> isr) {
        return assignments.alterIsr(0, topicId, 0, 0, partitionEpoch, isr).error();
    }

    private TopicAssignments.IsrMember member(int id) {
        return new TopicAssignments.IsrMember(id, membership.epoch(id));
    }

    private void shutDown(int id) {
        membership.heartbeat(id, brokerEpochs.get(id), 0, false, true);
    }

    private PartitionImage partition() {
        return assignments.image().topic("t").orElseThrow().partitions().get(0);
    }

    /** A CreateTopics topic of this many partitions of this many replicas, placed by the controller. */
    private static PartitionRules.NewTopic counts(int partitions, int replicationFactor) {
        return new PartitionRules.NewTopic(partitions, replicationFactor, List.of(), 1, 1);
    }

    /** A CreateTopics topic of these replica lists, partition 0's first. */
    private static PartitionRules.NewTopic manual(List<List<Integer>> replicaLists) {
        List<PartitionRules.ManualAssignment> assignments = new ArrayList<>();
        for (int partition = 0; partition < replicaLists.size(); partition++) {
            assignments.add(new PartitionRules.ManualAssignment(partition, replicaLists.get(partition)));
        }
        return new PartitionRules.NewTopic(-1, -1, assignments, 1, 1);
    }
}
