package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.Eventually;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.group.GroupProtocolErrorsTest.joinRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Classic static membership (KIP-345, KIP-814) as Kafka's coordinator handles it: a restarted instance takes its
 * place back without a rebalance unless the group's protocol would change, and a static member that misses a join
 * phase keeps its place until its session timeout. The broker runs on a manual clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StaticMembershipTest {

    private static final int SESSION_MS = 30_000;
    private static final int REBALANCE_MS = 5_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private final List<GroupWireClient> clients = new ArrayList<>();
    private Broker broker;
    private GroupWireClient observer;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"), clock);
        observer = client();
    }

    @AfterEach
    void stop() throws Exception {
        for (GroupWireClient each : clients) {
            each.close();
        }
        broker.close();
    }

    @Test
    void aRestartedStaticFollowerWithNewSubscriptionBytesTakesItsPlaceWithoutARebalance() throws Exception {
        Member[] members = stableGroupOfTwo("bytes");

        // kafka-clients put the owned partitions and the generation in the subscription: new bytes, same protocol.
        Struct restarted = members[1].client.call(ApiKey.JOIN_GROUP, 9,
                staticJoin("bytes", "", "instance-b", new byte[]{9, 9}));

        assertThat(restarted.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(restarted.getInt32("GenerationId")).isEqualTo(2);
        assertThat(restarted.getString("MemberId")).isNotEqualTo(members[1].id);
        assertThat(restarted.getBool("SkipAssignment")).isFalse();
        assertThat(restarted.getStructs("Members")).isEmpty();
        assertThat(observer.describedState("bytes")).isEqualTo("Stable");
        assertThat(sync(members[1].client, "bytes", 2, restarted.getString("MemberId"), "instance-b")
                .getBytes("Assignment")).as("the old member's assignment").containsExactly(2);
    }

    @Test
    void aRestartedStaticLeaderIsToldToSkipTheAssignmentAndTheGroupStaysStable() throws Exception {
        Member[] members = stableGroupOfTwo("leader");

        Struct restarted = members[0].client.call(ApiKey.JOIN_GROUP, 9,
                staticJoin("leader", "", "instance-a", new byte[]{5}));

        String newId = restarted.getString("MemberId");
        assertThat(restarted.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(restarted.getInt32("GenerationId")).isEqualTo(2);
        assertThat(restarted.getString("Leader")).isEqualTo(newId);
        assertThat(restarted.getBool("SkipAssignment")).isTrue();
        assertThat(restarted.getStructs("Members")).extracting(m -> m.getString("MemberId"))
                .containsExactlyInAnyOrder(newId, members[1].id);
        assertThat(observer.describedState("leader")).isEqualTo("Stable");
        assertThat(heartbeat(members[1].client, "leader", 2, members[1].id, "instance-b"))
                .as("the follower sees no rebalance").isEqualTo(Errors.NONE.code());
    }

    @Test
    void beforeVersion9ARestartedStaticLeaderIsToldTheLeaderItReplacedAndNoMembers() throws Exception {
        Member[] members = stableGroupOfTwo("old-client");

        Struct restarted = members[0].client.call(ApiKey.JOIN_GROUP, 8,
                staticJoin("old-client", "", "instance-a", new byte[]{5}));

        assertThat(restarted.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(restarted.getInt32("GenerationId")).isEqualTo(2);
        assertThat(restarted.getString("Leader")).isEqualTo(members[0].id);
        assertThat(restarted.getStructs("Members")).isEmpty();
        assertThat(observer.describedState("old-client")).isEqualTo("Stable");
    }

    @Test
    void aStaticMemberThatMissesTheJoinPhaseKeepsItsPlaceAndTheRejoinedMemberLeads() throws Exception {
        GroupWireClient staticClient = client();
        Struct a = staticClient.call(ApiKey.JOIN_GROUP, 9, staticJoin("kept", "", "instance-a", new byte[]{1}));
        String aId = a.getString("MemberId");
        sync(staticClient, "kept", 1, aId, "instance-a", aId);
        GroupWireClient dynamicClient = client();
        String bId = dynamicClient.call(ApiKey.JOIN_GROUP, 9, dynamicJoin("kept", "")).getString("MemberId");
        CompletableFuture<Struct> bJoin = async(dynamicClient, dynamicJoin("kept", bId));
        Eventually.await(() -> observer.stateIs("kept", "PreparingRebalance"), "B's join to start a rebalance");

        // A stopped heartbeating without leaving: its 30 s session outlasts the 5 s join phase.
        clock.advance(REBALANCE_MS);
        Struct joined = bJoin.get(30, TimeUnit.SECONDS);

        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(joined.getInt32("GenerationId")).isEqualTo(2);
        assertThat(joined.getString("Leader")).as("A did not rejoin: B leads").isEqualTo(bId);
        assertThat(joined.getStructs("Members")).extracting(m -> m.getString("MemberId"))
                .containsExactlyInAnyOrder(aId, bId);
    }

    /**
     * Static A (instance-a, the leader) and static B (instance-b) in generation 2 of a Stable group, A assigned
     * {1} and B {2}, each speaking on its own connection.
     */
    private Member[] stableGroupOfTwo(String groupId) throws Exception {
        GroupWireClient aClient = client();
        GroupWireClient bClient = client();
        String aId = aClient.call(ApiKey.JOIN_GROUP, 9, staticJoin(groupId, "", "instance-a", new byte[]{1}))
                .getString("MemberId");
        sync(aClient, groupId, 1, aId, "instance-a", aId);
        CompletableFuture<Struct> bJoin = async(bClient, staticJoin(groupId, "", "instance-b", new byte[]{2}));
        Eventually.await(() -> observer.stateIs(groupId, "PreparingRebalance"), "B's join to start a rebalance");
        Struct aRejoined = aClient.call(ApiKey.JOIN_GROUP, 9, staticJoin(groupId, aId, "instance-a", new byte[]{1}));
        assertThat(aRejoined.getInt32("GenerationId")).isEqualTo(2);
        String bId = bJoin.get(30, TimeUnit.SECONDS).getString("MemberId");
        Struct leaderSync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", groupId).set("GenerationId", 2)
                .set("MemberId", aId).set("GroupInstanceId", "instance-a");
        leaderSync.addElement("Assignments").set("MemberId", aId).set("Assignment", new byte[]{1});
        leaderSync.addElement("Assignments").set("MemberId", bId).set("Assignment", new byte[]{2});
        assertThat(aClient.call(ApiKey.SYNC_GROUP, 5, leaderSync).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(sync(bClient, groupId, 2, bId, "instance-b").getBytes("Assignment")).containsExactly(2);
        assertThat(observer.describedState(groupId)).isEqualTo("Stable");
        return new Member[]{new Member(aClient, aId), new Member(bClient, bId)};
    }

    private record Member(GroupWireClient client, String id) {
    }

    private GroupWireClient client() throws IOException {
        GroupWireClient client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        clients.add(client);
        return client;
    }

    private static Struct staticJoin(String groupId, String memberId, String instanceId, byte[] metadata) {
        return joinRequest(groupId, memberId, SESSION_MS, metadata).set("RebalanceTimeoutMs", REBALANCE_MS)
                .set("GroupInstanceId", instanceId);
    }

    private static Struct dynamicJoin(String groupId, String memberId) {
        return joinRequest(groupId, memberId, SESSION_MS, new byte[0]).set("RebalanceTimeoutMs", REBALANCE_MS);
    }

    /** A SyncGroup v5 that assigns {1} to the member named in {@code assignTo}, if any. */
    private static Struct sync(GroupWireClient client, String groupId, int generation, String memberId,
                               String instanceId, String... assignTo) throws IOException {
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", groupId)
                .set("GenerationId", generation).set("MemberId", memberId).set("GroupInstanceId", instanceId)
                .set("ProtocolType", "consumer").set("ProtocolName", "range");
        for (String each : assignTo) {
            sync.addElement("Assignments").set("MemberId", each).set("Assignment", new byte[]{1});
        }
        Struct synced = client.call(ApiKey.SYNC_GROUP, 5, sync);
        assertThat(synced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        return synced;
    }

    private static short heartbeat(GroupWireClient client, String groupId, int generation, String memberId,
                                   String instanceId) throws IOException {
        return client.call(ApiKey.HEARTBEAT, 4, ApiKey.HEARTBEAT.request().newMessage().set("GroupId", groupId)
                .set("GenerationId", generation).set("MemberId", memberId).set("GroupInstanceId", instanceId))
                .getInt16("ErrorCode");
    }

    private static CompletableFuture<Struct> async(GroupWireClient client, Struct join) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return client.call(ApiKey.JOIN_GROUP, 9, join);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }
}
