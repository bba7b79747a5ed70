package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A single node restarted on the same log dir brings its groups back as their metadata records left them: a
 * member of a Stable group carries on with its generation, member id and assignment, no rebalance (a static
 * member under the id it last took); one that does not come back within its session timeout expires as usual.
 * Every start is on one manual clock, so a session runs out only when a test advances it, however slow the
 * machine (on the real clock a 1 s session could run out between a join and its sync, or before the restart).
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class GroupMetadataRestartTest {

    private static final Map<String, String> CONFIG = Map.of("group.initial.rebalance.delay.ms", "0",
            "group.min.session.timeout.ms", "500");

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, CONFIG, clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        Struct create = ApiKey.CREATE_TOPICS.request().newMessage();
        create.addElement("Topics").set("Name", "orders").set("NumPartitions", 1).set("ReplicationFactor", (short) 1);
        assertThat(client.call(ApiKey.CREATE_TOPICS, 7, create).getStructs("Topics").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private void restart() throws Exception {
        restart(CONFIG);
    }

    private void restart(Map<String, String> config) throws Exception {
        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, config, clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    private Struct join(String groupId, String memberId, int sessionTimeoutMs) throws IOException {
        return client.call(ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest(groupId, memberId,
                sessionTimeoutMs, new byte[]{9}));
    }

    /** Joins alone and syncs the assignment {7}: the member (and leader) of generation 1 of a Stable group. */
    private Struct joinAndSyncAlone(String groupId, int sessionTimeoutMs) throws IOException {
        String memberId = join(groupId, "", sessionTimeoutMs).getString("MemberId");
        Struct joined = join(groupId, memberId, sessionTimeoutMs);
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        Struct synced = sync(groupId, joined.getInt32("GenerationId"), memberId, new byte[]{7});
        assertThat(synced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        return joined;
    }

    private Struct sync(String groupId, int generation, String memberId, byte[] assignment) throws IOException {
        Struct sync = syncRequest(groupId, generation, memberId);
        if (assignment != null) {
            sync.addElement("Assignments").set("MemberId", memberId).set("Assignment", assignment);
        }
        return client.call(ApiKey.SYNC_GROUP, 5, sync);
    }

    private Errors heartbeat(String groupId, int generation, String memberId) throws IOException {
        return Errors.forCode(client.call(ApiKey.HEARTBEAT, 4, ApiKey.HEARTBEAT.request().newMessage()
                .set("GroupId", groupId).set("GenerationId", generation).set("MemberId", memberId))
                .getInt16("ErrorCode"));
    }

    private Errors commit(String groupId, int generation, String memberId, long offset) throws IOException {
        Struct commit = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", groupId)
                .set("GenerationIdOrMemberEpoch", generation).set("MemberId", memberId);
        commit.addElement("Topics").set("Name", "orders").addElement("Partitions").set("PartitionIndex", 0)
                .set("CommittedOffset", offset).set("CommittedMetadata", "");
        return Errors.forCode(client.call(ApiKey.OFFSET_COMMIT, 9, commit).getStructs("Topics").get(0)
                .getStructs("Partitions").get(0).getInt16("ErrorCode"));
    }

    private Struct described(String groupId) throws IOException {
        Struct request = ApiKey.DESCRIBE_GROUPS.request().newMessage().set("Groups", List.of(groupId));
        return client.call(ApiKey.DESCRIBE_GROUPS, 5, request).getStructs("Groups").get(0);
    }

    @Test
    void aMemberOfAStableGroupCarriesOnAfterARestartWithoutARebalance() throws Exception {
        Struct joined = joinAndSyncAlone("steady", 30_000);
        String memberId = joined.getString("MemberId");
        int generation = joined.getInt32("GenerationId");
        assertThat(commit("steady", generation, memberId, 5)).isEqualTo(Errors.NONE);

        restart();

        assertThat(heartbeat("steady", generation, memberId)).isEqualTo(Errors.NONE);
        assertThat(commit("steady", generation, memberId, 6)).isEqualTo(Errors.NONE);
        Struct synced = sync("steady", generation, memberId, null);
        assertThat(synced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(synced.getBytes("Assignment")).as("the stored assignment").containsExactly(7);
        Struct group = described("steady");
        assertThat(group.getString("GroupState")).isEqualTo("Stable");
        assertThat(group.getString("ProtocolData")).isEqualTo("range");
        assertThat(group.getStructs("Members")).singleElement().satisfies(member -> {
            assertThat(member.getString("MemberId")).isEqualTo(memberId);
            assertThat(member.getBytes("MemberMetadata")).containsExactly(9);
            assertThat(member.getBytes("MemberAssignment")).containsExactly(7);
        });
    }

    @Test
    void aMemberThatDoesNotComeBackAfterARestartExpiresAndTheGroupIsStoredEmpty() throws Exception {
        Struct joined = joinAndSyncAlone("gone", 1_000);
        String memberId = joined.getString("MemberId");

        restart();
        assertThat(described("gone").getString("GroupState")).isEqualTo("Stable");
        clock.advance(999);
        assertThat(stateOf("gone")).as("within the session").isEqualTo("Stable");
        clock.advance(1);
        await(() -> stateOf("gone").equals("Empty"), "the member's session to expire");
        assertThat(heartbeat("gone", joined.getInt32("GenerationId"), memberId)).isEqualTo(Errors.UNKNOWN_MEMBER_ID);

        restart();
        assertThat(described("gone").getString("GroupState")).as("the Empty group's record").isEqualTo("Empty");
        Struct rejoined = joinAndSyncAlone("gone", 10_000);
        assertThat(rejoined.getInt32("GenerationId")).as("after generation 1 and the Empty generation 2")
                .isEqualTo(3);
    }

    @Test
    void aStaticMembersNewIdInAStableGroupIsStoredAndKnownAfterARestart() throws Exception {
        Struct leader = client.call(ApiKey.JOIN_GROUP, 9, staticJoin("", "a"));
        String leaderId = leader.getString("MemberId");
        assertThat(sync("statics", leader.getInt32("GenerationId"), leaderId, new byte[]{1}).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
        String followerId;
        int generation;
        try (GroupWireClient follower = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            CompletableFuture<Struct> followerJoin = CompletableFuture.supplyAsync(() -> call(follower,
                    ApiKey.JOIN_GROUP, 9, staticJoin("", "b")));
            await(() -> stateOf("statics").equals("PreparingRebalance"), "the follower's join to start a rebalance");
            Struct rejoined = client.call(ApiKey.JOIN_GROUP, 9, staticJoin(leaderId, "a"));
            generation = rejoined.getInt32("GenerationId");
            followerId = followerJoin.get().getString("MemberId");
            CompletableFuture<Struct> followerSync = CompletableFuture.supplyAsync(() -> call(follower,
                    ApiKey.SYNC_GROUP, 5, syncRequest("statics", generation, followerId)));
            Struct leaderSync = syncRequest("statics", generation, leaderId);
            leaderSync.addElement("Assignments").set("MemberId", leaderId).set("Assignment", new byte[]{1});
            leaderSync.addElement("Assignments").set("MemberId", followerId).set("Assignment", new byte[]{2});
            assertThat(client.call(ApiKey.SYNC_GROUP, 5, leaderSync).getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            assertThat(followerSync.get().getBytes("Assignment")).containsExactly(2);
        }

        // The follower's process restarts and takes its place back under a new id: no rebalance, the id is stored.
        Struct replaced = client.call(ApiKey.JOIN_GROUP, 9, staticJoin("", "b"));
        assertThat(replaced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(replaced.getInt32("GenerationId")).isEqualTo(generation);
        String newFollowerId = replaced.getString("MemberId");
        assertThat(newFollowerId).isNotEqualTo(followerId);

        restart();

        assertThat(heartbeat("statics", generation, newFollowerId)).isEqualTo(Errors.NONE);
        assertThat(heartbeat("statics", generation, leaderId)).isEqualTo(Errors.NONE);
        // A follower rejoining with the protocol it was loaded with is answered the current generation, as in
        // Kafka for a Stable group, and syncs its stored assignment.
        Struct rejoined = client.call(ApiKey.JOIN_GROUP, 9, staticJoin(newFollowerId, "b"));
        assertThat(rejoined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(rejoined.getInt32("GenerationId")).as("no rebalance").isEqualTo(generation);
        assertThat(rejoined.getString("Leader")).isEqualTo(leaderId);
        Struct synced = client.call(ApiKey.SYNC_GROUP, 5, syncRequest("statics", generation, newFollowerId));
        assertThat(synced.getBytes("Assignment")).as("the replaced member's assignment").containsExactly(2);
        assertThat(stateOf("statics")).isEqualTo("Stable");
    }

    private static Struct staticJoin(String memberId, String instanceId) {
        return GroupProtocolErrorsTest.joinRequest("statics", memberId, 30_000, new byte[]{9})
                .set("GroupInstanceId", instanceId);
    }

    private static Struct syncRequest(String groupId, int generation, String memberId) {
        return ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", groupId).set("GenerationId", generation)
                .set("MemberId", memberId).set("ProtocolType", "consumer").set("ProtocolName", "range");
    }

    private static Struct call(GroupWireClient client, ApiKey api, int version, Struct body) {
        try {
            return client.call(api, version, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * As Kafka's onLoaded: a group loaded with more members than {@code group.max.size} (lowered since) rebalances at
     * once; its members are told to rejoin, the first to rejoin keeps its place, the next is refused
     * GROUP_MAX_SIZE_REACHED and leaves, and the generation that follows has the one member.
     */
    @Test
    void aGroupLoadedOverGroupMaxSizeRebalancesDownToIt() throws Exception {
        Struct leader = joinAndSyncAlone("crowded", 30_000);
        String leaderId = leader.getString("MemberId");
        String followerId;
        int generation;
        try (GroupWireClient follower = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            String assignedId = call(follower, ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest("crowded", "",
                    30_000, new byte[]{9})).getString("MemberId"); // MEMBER_ID_REQUIRED
            CompletableFuture<Struct> followerJoin = CompletableFuture.supplyAsync(() -> call(follower,
                    ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest("crowded", assignedId, 30_000,
                            new byte[]{9})));
            await(() -> stateOf("crowded").equals("PreparingRebalance"), "the follower's join to start a rebalance");
            generation = join("crowded", leaderId, 30_000).getInt32("GenerationId");
            followerId = followerJoin.get().getString("MemberId");
            Struct leaderSync = syncRequest("crowded", generation, leaderId);
            leaderSync.addElement("Assignments").set("MemberId", leaderId).set("Assignment", new byte[]{1});
            leaderSync.addElement("Assignments").set("MemberId", followerId).set("Assignment", new byte[]{2});
            assertThat(client.call(ApiKey.SYNC_GROUP, 5, leaderSync).getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
        }
        assertThat(described("crowded").getStructs("Members")).hasSize(2);

        Map<String, String> smaller = new HashMap<>(CONFIG);
        smaller.put("group.max.size", "1");
        restart(smaller);

        assertThat(stateOf("crowded")).as("rebalancing as it is loaded").isEqualTo("PreparingRebalance");
        assertThat(heartbeat("crowded", generation, leaderId)).isEqualTo(Errors.REBALANCE_IN_PROGRESS);
        List<Struct> rejoins;
        try (GroupWireClient follower = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            CompletableFuture<Struct> leaderRejoin = CompletableFuture.supplyAsync(() -> call(client,
                    ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest("crowded", leaderId, 30_000,
                            new byte[]{9})));
            CompletableFuture<Struct> followerRejoin = CompletableFuture.supplyAsync(() -> call(follower,
                    ApiKey.JOIN_GROUP, 9, GroupProtocolErrorsTest.joinRequest("crowded", followerId, 30_000,
                            new byte[]{9})));
            rejoins = List.of(leaderRejoin.get(), followerRejoin.get());
        }
        // Whichever rejoins first keeps its place, as in Kafka's acceptJoiningMember.
        assertThat(rejoins).extracting(answer -> Errors.forCode(answer.getInt16("ErrorCode")))
                .containsExactlyInAnyOrder(Errors.NONE, Errors.GROUP_MAX_SIZE_REACHED);
        Struct kept = rejoins.stream().filter(answer -> answer.getInt16("ErrorCode") == Errors.NONE.code())
                .findFirst().orElseThrow();
        assertThat(kept.getInt32("GenerationId")).isEqualTo(generation + 1);
        assertThat(kept.getStructs("Members")).as("the new leader's view: itself alone").singleElement()
                .satisfies(member -> assertThat(member.getString("MemberId")).isEqualTo(kept.getString("MemberId")));
        assertThat(described("crowded").getStructs("Members")).hasSize(1);
    }

    @Test
    void aDeletedGroupStaysDeletedAfterARestart() throws Exception {
        Struct joined = joinAndSyncAlone("deleted", 10_000);
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", "deleted");
        leave.addElement("Members").set("MemberId", joined.getString("MemberId"));
        assertThat(client.call(ApiKey.LEAVE_GROUP, 4, leave).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        await(() -> stateOf("deleted").equals("Empty"), "the group to be Empty");
        Struct delete = ApiKey.DELETE_GROUPS.request().newMessage().set("GroupsNames", List.of("deleted"));
        assertThat(client.call(ApiKey.DELETE_GROUPS, 2, delete).getStructs("Results").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());

        restart();

        assertThat(described("deleted").getString("GroupState")).isEqualTo("Dead");
    }

    private String stateOf(String groupId) {
        try {
            return described(groupId).getString("GroupState");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
