package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.share.ShareGroupMembership;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A share group's partitions are assigned only once their share state is initialized, as Kafka's group coordinator
 * has it: the heartbeat lists them as initializing (record 15) and is answered with nothing assigned, the delivery
 * side is asked to initialize them (InitializeShareGroupState at the group epoch), and the heartbeat after its
 * answer assigns them at a new epoch. A failed initialization is asked for again by the next heartbeat, one still
 * unanswered after {@code group.share.initialize.retry.interval.ms} too, and so is one whose heartbeat's write
 * failed. A late answer initializes only what is still initializing. AlterShareGroupOffsets' partitions are
 * assignable only once their reset counts. Time is a ManualClock's.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareGroupStateInitializationTest {

    /** One initialization the coordinator asked for, answered by the test. */
    private record Asked(Map<UUID, Set<Integer>> partitions, int stateEpoch, CompletableFuture<Void> answer) {
    }

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private final List<Asked> asked = new CopyOnWriteArrayList<>();
    private TopicRegistry topics;
    private GroupCoordinator coordinator;
    private UUID queue;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1",
                // so that a heartbeat with a long client id fails its write
                "message.max.bytes", "1000"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("queue", 2, 1, Map.of(), false);
        queue = topics.get("queue").orElseThrow().id();
        coordinator = new GroupCoordinator(config, topics, BrokerClock.manual(clock));
        coordinator.initializeShareStateWith((groupId, partitions, stateEpoch) -> {
            Asked call = new Asked(partitions, stateEpoch, new CompletableFuture<>());
            asked.add(call);
            return call.answer();
        });
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private ShareGroupHeartbeat.Response heartbeat(int epoch, List<String> subscribed) throws Exception {
        ShareGroupHeartbeat.Response response = coordinator.shareGroupHeartbeat(new ShareGroupHeartbeat.Request(
                "g", "m", epoch, null, subscribed, "client", "/127.0.0.1")).get();
        assertThat(response.error()).isEqualTo(Errors.NONE);
        return response;
    }

    private ShareGroupStatePartitions state() {
        ShareGroup group = coordinator.shareGroup("g");
        synchronized (group) {
            return group.statePartitions;
        }
    }

    @Test
    void aPartitionIsAssignedOnlyOnceItsStateIsInitialized() throws Exception {
        ShareGroupHeartbeat.Response joined = heartbeat(0, List.of("queue"));
        assertThat(joined.memberEpoch()).isEqualTo(2);
        assertThat(joined.assignment()).as("nothing assigned before the state is initialized").isEmpty();
        assertThat(asked).hasSize(1);
        assertThat(asked.get(0).partitions()).isEqualTo(Map.of(queue, Set.of(0, 1)));
        assertThat(asked.get(0).stateEpoch()).as("the group epoch").isEqualTo(2);
        assertThat(state().initializing.get(queue).partitions()).containsExactly(0, 1);
        assertThat(state().initialized).isEmpty();

        ShareGroupHeartbeat.Response waiting = heartbeat(2, null);
        assertThat(waiting.memberEpoch()).isEqualTo(2);
        assertThat(waiting.assignment()).as("unchanged, left out").isNull();
        assertThat(asked).as("initializing: not asked again").hasSize(1);

        // Answered: the partitions move to initialized (on the coordinator's thread, before the next heartbeat).
        asked.get(0).answer().complete(null);
        ShareGroupHeartbeat.Response assigned = heartbeat(2, null);
        assertThat(assigned.memberEpoch()).as("a new epoch assigns them").isEqualTo(3);
        assertThat(assigned.assignment()).isEqualTo(Map.of(queue, Set.of(0, 1)));
        assertThat(state().initializing).isEmpty();
        assertThat(state().initialized.get(queue).partitions()).containsExactly(0, 1);
        assertThat(heartbeat(3, null).assignment()).as("nothing more to do").isNull();
        assertThat(asked).hasSize(1);
    }

    @Test
    void aFailedOrOverdueInitializationIsAskedForAgain() throws Exception {
        heartbeat(0, List.of("queue"));
        asked.get(0).answer().completeExceptionally(new LogException(Errors.COORDINATOR_NOT_AVAILABLE, "none yet"));
        assertThat(heartbeat(2, null).assignment()).isNull();
        assertThat(asked).as("failed: no longer initializing, asked for again").hasSize(2);

        clock.advance(29_999);
        heartbeat(2, null);
        assertThat(asked).as("initializing since less than the retry interval").hasSize(2);
        clock.advance(1);
        heartbeat(2, null);
        assertThat(asked).as("overdue: asked for again").hasSize(3);

        asked.get(2).answer().complete(null);
        assertThat(heartbeat(2, null).assignment()).isEqualTo(Map.of(queue, Set.of(0, 1)));
        asked.get(1).answer().complete(null); // a late answer changes nothing
        assertThat(heartbeat(3, null).assignment()).isNull();
        assertThat(asked).hasSize(3);
    }

    @Test
    void aFailedHeartbeatWriteLeavesNothingInitializingAndTheNextHeartbeatAsks() throws Exception {
        ShareGroupHeartbeat.Response refused = coordinator.shareGroupHeartbeat(new ShareGroupHeartbeat.Request(
                "g", "m", 0, null, List.of("queue"), "c".repeat(1500), "/127.0.0.1")).get();
        assertThat(refused.error()).as("its batch over message.max.bytes").isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        assertThat(asked).as("nothing asked for").isEmpty();
        assertThat(coordinator.shareGroup("g")).as("rolled back: no group, nothing left initializing").isNull();

        heartbeat(0, List.of("queue"));
        assertThat(asked).as("asked for by the next heartbeat").hasSize(1);
        assertThat(asked.get(0).partitions()).isEqualTo(Map.of(queue, Set.of(0, 1)));
    }

    /**
     * DeleteShareGroupOffsets of a topic still initializing finds no offset information to delete and leaves it as it
     * is, as Kafka's sharePartitionsEligibleForOffsetDeletion does: a late answer initializes it.
     */
    @Test
    void deletingTheOffsetsOfATopicStillInitializingLeavesIt() throws Exception {
        heartbeat(0, List.of("queue"));
        heartbeat(ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH, null);
        ShareGroupMembership membership = coordinator.shareGroupMembership();
        ShareGroupMembership.OffsetsDeletion start = membership.startOffsetsDeletion("g", Set.of(queue))
                .toCompletableFuture().get();
        assertThat(start.outcome().error()).isEqualTo(Errors.NONE);
        assertThat(start.partitions()).as("nothing to delete").isEmpty();
        assertThat(state().deleting).isEmpty();

        asked.get(0).answer().complete(null);
        heartbeatToDrainTheCoordinatorThread();
        assertThat(membership.statePartitions("g")).isEqualTo(Map.of(queue, Set.of(0, 1)));
    }

    /**
     * DeleteShareGroupOffsets of an initialized topic, as Kafka's: it moves to deleting (written before the state is
     * deleted), its initialized partitions to be deleted; asked again while it is still deleting (its deletion
     * failed), every partition of it; once deleted, it leaves the record.
     */
    @Test
    void deletingOffsetsMovesTheTopicToDeletingUntilItsStateIsGone() throws Exception {
        heartbeat(0, List.of("queue"));
        asked.get(0).answer().complete(null);
        heartbeat(ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH, null);
        ShareGroupMembership membership = coordinator.shareGroupMembership();
        ShareGroupMembership.OffsetsDeletion start = membership.startOffsetsDeletion("g", Set.of(queue))
                .toCompletableFuture().get();
        assertThat(start.partitions()).isEqualTo(Map.of(queue, Set.of(0, 1)));
        assertThat(state().initialized).isEmpty();
        assertThat(state().deleting).containsOnlyKeys(queue);

        assertThat(membership.startOffsetsDeletion("g", Set.of(queue)).toCompletableFuture().get().partitions())
                .as("still deleting: every partition").isEqualTo(Map.of(queue, Set.of(0, 1)));
        assertThat(membership.offsetsDeleted("g", Set.of(queue)).toCompletableFuture().get().error())
                .isEqualTo(Errors.NONE);
        assertThat(state().deleting).isEmpty();
    }

    /**
     * DeleteShareGroupOffsets of a group with a member is refused inside the operation that would write record 15, as
     * Kafka's validateDeleteGroup in initiateDeleteShareGroupOffsets: a member joining after the handler's own look
     * at the group still keeps its state.
     */
    @Test
    void deletingTheOffsetsOfAGroupWithMembersIsRefusedAndChangesNothing() throws Exception {
        heartbeat(0, List.of("queue"));
        asked.get(0).answer().complete(null);
        heartbeat(2, null);
        ShareGroupMembership.OffsetsDeletion start = coordinator.shareGroupMembership()
                .startOffsetsDeletion("g", Set.of(queue)).toCompletableFuture().get();
        assertThat(start.outcome().error()).isEqualTo(Errors.NON_EMPTY_GROUP);
        assertThat(start.partitions()).isEmpty();
        assertThat(state().initialized).containsOnlyKeys(queue);
        assertThat(state().deleting).isEmpty();
    }

    @Test
    void alteredPartitionsAreAssignedOnlyOnceTheirResetCounts() throws Exception {
        ShareGroupMembership membership = coordinator.shareGroupMembership();
        CompletableFuture<Integer> resetAsked = new CompletableFuture<>();
        CompletableFuture<Void> reset = new CompletableFuture<>();
        CompletionStage<ShareGroupMembership.Outcome> altered = membership.alterOffsets("g",
                Map.of(queue, Set.of(0)), stateEpoch -> {
                    resetAsked.complete(stateEpoch);
                    return reset;
                });
        assertThat(resetAsked.get()).as("the reset comes after the write, at the group epoch")
                .isEqualTo(ConsumerGroup.NEW_GROUP_EPOCH);
        assertThat(state().initializing.get(queue).partitions()).containsExactly(0);
        assertThat(state().initialized).isEmpty();

        ShareGroupHeartbeat.Response joined = heartbeat(0, List.of("queue"));
        assertThat(joined.assignment()).as("partition 0 not reset yet: not assigned").isEmpty();
        assertThat(asked.get(0).partitions()).as("partition 0 is initializing already").isEqualTo(
                Map.of(queue, Set.of(1)));

        reset.complete(null);
        assertThat(altered.toCompletableFuture().get().error()).isEqualTo(Errors.NONE);
        ShareGroupHeartbeat.Response assigned = heartbeat(2, null);
        assertThat(assigned.memberEpoch()).isEqualTo(3);
        assertThat(assigned.assignment()).isEqualTo(Map.of(queue, Set.of(0)));
    }

    @Test
    void aFailedResetLeavesTheAlteredPartitionsInitializing() throws Exception {
        CompletionStage<ShareGroupMembership.Outcome> altered = coordinator.shareGroupMembership().alterOffsets("g",
                Map.of(queue, Set.of(0)), stateEpoch ->
                        CompletableFuture.failedFuture(new LogException(Errors.COORDINATOR_NOT_AVAILABLE, "none")));
        assertThatThrownBy(() -> altered.toCompletableFuture().get()).isInstanceOf(ExecutionException.class)
                .hasRootCauseInstanceOf(LogException.class);
        assertThat(state().initializing.get(queue).partitions()).containsExactly(0);
        assertThat(state().initialized).isEmpty();
    }

    /**
     * A topic that leaves every member's subscription keeps its share state, as in Kafka 4.3.1, whose group coordinator
     * deletes share-group state only for DeleteGroups and DeleteShareGroupOffsets (and forgets a deleted topic's), never
     * for a heartbeat: record 15 keeps it initialized, nothing is deleted, and a member subscribing to it again is
     * assigned its partitions at that heartbeat, with no new initialization (which would reset its state).
     */
    @Test
    void aTopicNoLongerSubscribedKeepsItsState() throws Exception {
        List<Map<UUID, Set<Integer>>> deleted = new CopyOnWriteArrayList<>();
        coordinator.deleteShareStateWith((groupId, partitions) -> {
            deleted.add(partitions);
            return CompletableFuture.completedFuture(null);
        });
        topics.create("other", 1, 1, Map.of(), false);
        UUID other = topics.get("other").orElseThrow().id();
        heartbeat(0, List.of("queue", "other"));
        asked.get(0).answer().complete(null);
        assertThat(heartbeat(2, null).assignment()).isEqualTo(Map.of(queue, Set.of(0, 1), other, Set.of(0)));

        ShareGroupHeartbeat.Response unsubscribed = heartbeat(3, List.of("other"));
        assertThat(unsubscribed.memberEpoch()).isEqualTo(4);
        assertThat(unsubscribed.assignment()).isEqualTo(Map.of(other, Set.of(0)));
        heartbeat(4, null);
        assertThat(state().initialized).containsOnlyKeys(queue, other);
        assertThat(state().initializing).isEmpty();
        assertThat(state().deleting).as("nothing moves to deleting").isEmpty();
        assertThat(deleted).as("no DeleteShareGroupState").isEmpty();

        ShareGroupHeartbeat.Response again = heartbeat(4, List.of("queue", "other"));
        assertThat(again.memberEpoch()).isEqualTo(5);
        assertThat(again.assignment()).as("initialized still: assigned at once")
                .isEqualTo(Map.of(queue, Set.of(0, 1), other, Set.of(0)));
        assertThat(asked).as("not initialized again").hasSize(1);
        assertThat(deleted).isEmpty();
    }

    /**
     * A heartbeat that initializes a subscribed topic still deleting (its DeleteShareGroupOffsets not finished) takes
     * it out of deleting, as Kafka's addInitializingTopicsRecords does (with a warning there).
     */
    @Test
    void initializingATopicStillDeletingTakesItOutOfDeleting() throws Exception {
        heartbeat(0, List.of("queue"));
        asked.get(0).answer().complete(null);
        heartbeat(ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH, null);
        assertThat(coordinator.shareGroupMembership().startOffsetsDeletion("g", Set.of(queue)).toCompletableFuture()
                .get().partitions()).isEqualTo(Map.of(queue, Set.of(0, 1)));
        assertThat(state().deleting).containsOnlyKeys(queue);

        assertThat(heartbeat(0, List.of("queue")).assignment()).isEmpty();
        assertThat(asked).hasSize(2);
        assertThat(asked.get(1).partitions()).isEqualTo(Map.of(queue, Set.of(0, 1)));
        assertThat(state().initializing.get(queue).partitions()).containsExactly(0, 1);
        assertThat(state().deleting).isEmpty();
    }

    /** A heartbeat refused for its unknown member, once the coordinator's thread has run what was queued before. */
    private void heartbeatToDrainTheCoordinatorThread() throws Exception {
        assertThat(coordinator.shareGroupHeartbeat(new ShareGroupHeartbeat.Request("g", "other", 1, null, null,
                "client", "/127.0.0.1")).get().error()).isEqualTo(Errors.UNKNOWN_MEMBER_ID);
    }
}
