package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The group epochs a share group's members are answered, heartbeat by heartbeat, against those Kafka's
 * GroupMetadataManager answers for the same sequence (traced through its shareGroupHeartbeat, shareGroupFenceMember
 * and initializedAssignmentPending). A member leaving bumps the group epoch once, its subscriptions leaving with it;
 * the next heartbeat bumps once more only when initialized partitions the group subscribes to are left in no target.
 * A group loaded whose stored metadata hash is not its subscribed topics' (partitions added while no coordinator ran)
 * bumps at its next heartbeat; one loaded with the same topics does not. Share state is initialized at once, as soon
 * as asked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareGroupEpochsTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;
    private UUID t;
    private UUID u;
    private UUID q;
    private BrokerConfig config;

    @BeforeEach
    void start() throws Exception {
        config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("t", 1, 1, Map.of(), false);
        topics.create("u", 1, 1, Map.of(), false);
        t = topics.get("t").orElseThrow().id();
        topics.create("q", 2, 1, Map.of(), false);
        u = topics.get("u").orElseThrow().id();
        q = topics.get("q").orElseThrow().id();
        startCoordinator();
    }

    private void startCoordinator() {
        coordinator = new GroupCoordinator(config, topics, BrokerClock.manual(new ManualClock()));
        coordinator.initializeShareStateWith((groupId, partitions, stateEpoch) -> CompletableFuture.completedFuture(null));
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private ShareGroupHeartbeat.Response heartbeat(String memberId, int epoch, List<String> subscribed)
            throws Exception {
        ShareGroupHeartbeat.Response response = coordinator.shareGroupHeartbeat(new ShareGroupHeartbeat.Request(
                "g", memberId, epoch, null, subscribed, "client", "/127.0.0.1")).get();
        assertThat(response.error()).isEqualTo(Errors.NONE);
        return response;
    }

    /**
     * a subscribes to u, b to t; b leaves. Kafka: the leave bumps the epoch to 6 with the metadata hash of u alone;
     * a's next heartbeat changes no subscription and every initialized partition of u is in a's target, so no bump:
     * a is answered 6. Counting b's subscription again at that heartbeat would answer 7.
     */
    @Test
    void aLeaverWhoseTopicNoOneElseSubscribesToBumpsTheEpochOnce() throws Exception {
        assertThat(heartbeat("a", 0, List.of("u")).memberEpoch()).isEqualTo(2);
        ShareGroupHeartbeat.Response aAssigned = heartbeat("a", 2, null);
        assertThat(aAssigned.memberEpoch()).as("u initialized: assigned at a new epoch").isEqualTo(3);
        assertThat(aAssigned.assignment()).isEqualTo(Map.of(u, Set.of(0)));
        assertThat(heartbeat("b", 0, List.of("t")).memberEpoch()).isEqualTo(4);
        ShareGroupHeartbeat.Response bAssigned = heartbeat("b", 4, null);
        assertThat(bAssigned.memberEpoch()).as("t initialized: assigned at a new epoch").isEqualTo(5);
        assertThat(bAssigned.assignment()).isEqualTo(Map.of(t, Set.of(0)));
        assertThat(heartbeat("a", 3, null).memberEpoch()).isEqualTo(5);

        heartbeat("b", ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH, null);
        ShareGroupHeartbeat.Response after = heartbeat("a", 5, null);
        assertThat(after.memberEpoch()).isEqualTo(6);
        assertThat(after.assignment()).isEqualTo(Map.of(u, Set.of(0)));
        assertThat(heartbeat("a", 6, null).memberEpoch()).isEqualTo(6);
    }

    /**
     * a and b subscribe to q, of two partitions, one each; b leaves. Kafka: the leave bumps the epoch to 5; at a's
     * next heartbeat b's partition is initialized and in no target (initializedAssignmentPending), which bumps it to
     * 6 and assigns it to a. So Kafka, too, moves the epoch twice here.
     */
    @Test
    void aLeaverWhosePartitionNoOneElseHoldsIsFollowedByABumpThatAssignsIt() throws Exception {
        heartbeat("a", 0, List.of("q"));
        assertThat(heartbeat("a", 2, null).assignment()).isEqualTo(Map.of(q, Set.of(0, 1)));
        ShareGroupHeartbeat.Response bJoined = heartbeat("b", 0, List.of("q"));
        assertThat(bJoined.memberEpoch()).isEqualTo(4);
        assertThat(bJoined.assignment()).isEqualTo(Map.of(q, Set.of(1)));
        assertThat(heartbeat("a", 3, null).assignment()).isEqualTo(Map.of(q, Set.of(0)));

        heartbeat("b", ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH, null);
        ShareGroupHeartbeat.Response after = heartbeat("a", 4, null);
        assertThat(after.memberEpoch()).isEqualTo(6);
        assertThat(after.assignment()).isEqualTo(Map.of(q, Set.of(0, 1)));
        assertThat(heartbeat("a", 6, null).memberEpoch()).isEqualTo(6);
    }

    /**
     * Partitions added to q while the coordinator was stopped: the group's record holds the hash of q with two, so
     * the first heartbeat after the load bumps the epoch, and the next one assigns the new partitions once their
     * share state is initialized. A load with nothing changed keeps the epoch.
     */
    @Test
    void partitionsAddedWhileNoCoordinatorRanMoveTheEpochAfterTheLoad() throws Exception {
        heartbeat("a", 0, List.of("q"));
        assertThat(heartbeat("a", 2, null).assignment()).isEqualTo(Map.of(q, Set.of(0, 1)));
        coordinator.close();
        startCoordinator();
        assertThat(heartbeat("a", 3, null).memberEpoch()).as("the same topics: no bump").isEqualTo(3);

        coordinator.close();
        assertThat(topics.addPartitions("q", 4, null, 0, false, added -> true).error()).isEqualTo(Errors.NONE);
        startCoordinator();
        assertThat(heartbeat("a", 3, null).memberEpoch()).as("the stored hash is not q's now").isEqualTo(4);
        ShareGroupHeartbeat.Response assigned = heartbeat("a", 4, null);
        assertThat(assigned.memberEpoch()).isEqualTo(5);
        assertThat(assigned.assignment()).isEqualTo(Map.of(q, Set.of(0, 1, 2, 3)));
    }
}
