package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.Eventually;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.StreamsGroupHeartbeatResponseView;
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
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The classic group protocol spoken by hand: member ids, generations, session timeouts and Kafka's errors. The
 * broker runs on a manual clock, so sessions run out exactly when a test advances it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupProtocolErrorsTest {

    private static final int JOIN_V9 = 9;
    private static final int SYNC_V5 = 5;
    private static final int HEARTBEAT_V4 = 4;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0",
                "group.min.session.timeout.ms", "500"), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    static Struct joinRequest(String groupId, String memberId, int sessionTimeoutMs, byte[] metadata) {
        Struct body = ApiKey.JOIN_GROUP.request().newMessage()
                .set("GroupId", groupId).set("SessionTimeoutMs", sessionTimeoutMs)
                .set("RebalanceTimeoutMs", sessionTimeoutMs).set("MemberId", memberId)
                .set("ProtocolType", "consumer");
        body.addElement("Protocols").set("Name", "range").set("Metadata", metadata);
        return body;
    }

    private Struct join(String groupId, String memberId, int sessionTimeoutMs) throws IOException {
        return client.call(ApiKey.JOIN_GROUP, JOIN_V9, joinRequest(groupId, memberId, sessionTimeoutMs, new byte[0]));
    }

    private Struct heartbeat(String groupId, int generation, String memberId) throws IOException {
        return client.call(ApiKey.HEARTBEAT, HEARTBEAT_V4, ApiKey.HEARTBEAT.request().newMessage()
                .set("GroupId", groupId).set("GenerationId", generation).set("MemberId", memberId));
    }

    /** Joins alone (answering MEMBER_ID_REQUIRED) and syncs an assignment: the member of a Stable group. */
    private Struct joinAndSyncAlone(String groupId, int sessionTimeoutMs) throws IOException {
        Struct required = join(groupId, "", sessionTimeoutMs);
        assertThat(required.getInt16("ErrorCode")).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        Struct joined = join(groupId, required.getString("MemberId"), sessionTimeoutMs);
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", groupId)
                .set("GenerationId", joined.getInt32("GenerationId")).set("MemberId", joined.getString("MemberId"))
                .set("ProtocolType", "consumer").set("ProtocolName", "range");
        sync.addElement("Assignments").set("MemberId", joined.getString("MemberId")).set("Assignment", new byte[]{7});
        Struct synced = client.call(ApiKey.SYNC_GROUP, SYNC_V5, sync);
        assertThat(synced.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(synced.getBytes("Assignment")).containsExactly(7);
        return joined;
    }

    private String describedState(String groupId) throws IOException {
        return client.describedState(groupId);
    }

    @Test
    void aLoneMemberJoinsWithTheGeneratedIdAndLeadsGenerationOne() throws IOException {
        Struct required = join("solo", "", 10_000);
        assertThat(required.getInt16("ErrorCode")).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertThat(required.getString("MemberId")).startsWith("wire-client-");

        Struct joined = join("solo", required.getString("MemberId"), 10_000);

        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(joined.getInt32("GenerationId")).isEqualTo(1);
        assertThat(joined.getString("ProtocolName")).isEqualTo("range");
        assertThat(joined.getString("Leader")).isEqualTo(required.getString("MemberId"));
        assertThat(joined.getStructs("Members")).singleElement()
                .satisfies(m -> assertThat(m.getString("MemberId")).isEqualTo(required.getString("MemberId")));
        assertThat(describedState("solo")).isEqualTo("CompletingRebalance");
    }

    @Test
    void aGeneratedMemberIdNotUsedWithinTheSessionTimeoutIsForgotten() throws Exception {
        String memberId = join("late", "", 500).getString("MemberId");
        clock.advance(500);

        assertThat(join("late", memberId, 500).getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aRebalanceWaitsForAPendingMemberOnlyUntilItsSessionTimeout() throws Exception {
        String memberId = joinAndSyncAlone("patient", 30_000).getString("MemberId"); // rebalance timeout 30 s
        try (GroupWireClient newcomer = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            Struct required = newcomer.call(ApiKey.JOIN_GROUP, JOIN_V9, joinRequest("patient", "", 1_000, new byte[0]));
            assertThat(required.getInt16("ErrorCode")).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        } // and never comes back

        GroupWireClient rejoining = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        CompletableFuture<Struct> rejoin = CompletableFuture.supplyAsync(() -> {
            try (rejoining) { // new metadata: a rebalance, parked until every member has rejoined
                return rejoining.call(ApiKey.JOIN_GROUP, JOIN_V9, joinRequest("patient", memberId, 30_000,
                        new byte[]{1}));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        Eventually.await(() -> client.stateIs("patient", "PreparingRebalance"), "the rejoin to start a rebalance");
        clock.advance(999);
        assertThat(describedState("patient")).as("the pending member's 1 s session has not run out").isEqualTo(
                "PreparingRebalance");

        clock.advance(1); // its session ends, 29 s before the rebalance timeout would
        Struct rejoined = rejoin.get(30, TimeUnit.SECONDS);

        assertThat(rejoined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(rejoined.getInt32("GenerationId")).isEqualTo(2);
        assertThat(rejoined.getStructs("Members")).extracting(m -> m.getString("MemberId")).containsExactly(memberId);
    }

    @Test
    void heartbeatsFromUnknownMembersAndOldGenerationsAreRefused() throws IOException {
        Struct member = joinAndSyncAlone("beats", 10_000);
        String memberId = member.getString("MemberId");
        int generation = member.getInt32("GenerationId");

        assertThat(heartbeat("beats", generation, memberId).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(heartbeat("beats", generation, "stranger").getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(heartbeat("no-such-group", generation, memberId).getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(heartbeat("beats", generation + 1, memberId).getInt16("ErrorCode"))
                .isEqualTo(Errors.ILLEGAL_GENERATION.code());
    }

    @Test
    void aKnownMemberNamingAnInstanceIdTheGroupDoesNotKnowIsAnUnknownMember() throws IOException {
        Struct member = joinAndSyncAlone("instances", 10_000);
        String memberId = member.getString("MemberId");
        int generation = member.getInt32("GenerationId");

        assertThat(client.call(ApiKey.HEARTBEAT, HEARTBEAT_V4, ApiKey.HEARTBEAT.request().newMessage()
                .set("GroupId", "instances").set("GenerationId", generation).set("MemberId", memberId)
                .set("GroupInstanceId", "x")).getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(client.call(ApiKey.SYNC_GROUP, SYNC_V5, ApiKey.SYNC_GROUP.request().newMessage()
                .set("GroupId", "instances").set("GenerationId", generation).set("MemberId", memberId)
                .set("GroupInstanceId", "x")).getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(client.call(ApiKey.JOIN_GROUP, JOIN_V9, joinRequest("instances", memberId, 10_000, new byte[0])
                .set("GroupInstanceId", "x")).getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", "instances");
        leave.addElement("Members").set("MemberId", memberId).set("GroupInstanceId", "x");
        assertThat(client.call(ApiKey.LEAVE_GROUP, 5, leave).getStructs("Members").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(describedState("instances")).as("the member is still there").isEqualTo("Stable");
    }

    @Test
    void anEmptyGroupIdIsInvalidForSyncHeartbeatAndLeave() throws IOException {
        assertThat(client.call(ApiKey.SYNC_GROUP, SYNC_V5, ApiKey.SYNC_GROUP.request().newMessage()
                .set("GroupId", "").set("GenerationId", 1).set("MemberId", "m")).getInt16("ErrorCode"))
                .isEqualTo(Errors.INVALID_GROUP_ID.code());
        assertThat(heartbeat("", 1, "m").getInt16("ErrorCode")).isEqualTo(Errors.INVALID_GROUP_ID.code());
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", "");
        leave.addElement("Members").set("MemberId", "m");
        assertThat(client.call(ApiKey.LEAVE_GROUP, 5, leave).getInt16("ErrorCode"))
                .isEqualTo(Errors.INVALID_GROUP_ID.code());
    }

    @Test
    void aSyncForAnOldGenerationIsIllegal() throws IOException {
        Struct member = joinAndSyncAlone("syncs", 10_000);
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", "syncs")
                .set("GenerationId", member.getInt32("GenerationId") - 1).set("MemberId", member.getString("MemberId"));

        assertThat(client.call(ApiKey.SYNC_GROUP, SYNC_V5, sync).getInt16("ErrorCode"))
                .isEqualTo(Errors.ILLEGAL_GENERATION.code());
    }

    /**
     * Kafka's classicGroupJoin answers a join for a share group or a streams group with members with a bare
     * JoinGroupResponseData, and a refusal by a consumer group with members is thrown and answered the same way: the
     * error, generation -1, no protocol, no leader and no member id, whatever member id the request named.
     */
    @Test
    void aJoinRefusedByAGroupOfAnotherTypeNamesNoMember() throws IOException {
        ConsumerGroupHeartbeatResponseView consumer = new ConsumerGroupHeartbeatResponseView(client.call(
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("consumer")
                        .memberId("c1").memberEpoch(0).rebalanceTimeoutMs(30_000)
                        .subscribedTopicNames(List.of("t")).topicPartitions(List.of()).struct()));
        assertThat(consumer.errorCode()).isEqualTo(Errors.NONE.code());
        ShareGroupHeartbeatResponseView share = new ShareGroupHeartbeatResponseView(client.call(
                ApiKey.SHARE_GROUP_HEARTBEAT, 1, new ShareGroupHeartbeatRequestView().groupId("share")
                        .memberId("s1").memberEpoch(0).subscribedTopicNames(List.of("t")).struct()));
        assertThat(share.errorCode()).isEqualTo(Errors.NONE.code());
        StreamsGroupHeartbeatRequestView streamsJoin = new StreamsGroupHeartbeatRequestView().groupId("streams")
                .memberId("k1").memberEpoch(0).rebalanceTimeoutMs(30_000).processId("p1")
                .activeTasks(new ArrayList<>()).standbyTasks(new ArrayList<>()).warmupTasks(new ArrayList<>())
                .topology(new StreamsGroupHeartbeatRequestView.Topology().epoch(0));
        streamsJoin.topology().addSubtopology().subtopologyId("0").sourceTopics(List.of("t"));
        StreamsGroupHeartbeatResponseView streams = new StreamsGroupHeartbeatResponseView(client.call(
                ApiKey.STREAMS_GROUP_HEARTBEAT, 0, streamsJoin.struct()));
        assertThat(streams.errorCode()).isEqualTo(Errors.NONE.code());

        for (String groupId : List.of("consumer", "share", "streams")) {
            for (String memberId : List.of("", "a-member-of-old")) {
                Struct join = joinRequest(groupId, memberId, 10_000, new byte[0]).set("ProtocolType", "connect");
                JoinGroupResponseView refused = new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                        join));
                assertThat(refused.errorCode()).as(groupId).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
                assertThat(refused.memberId()).as(groupId + ", member id named: " + memberId).isEmpty();
                assertThat(refused.generationId()).as(groupId).isEqualTo(-1);
                assertThat(refused.protocolType()).as(groupId).isNull();
                assertThat(refused.protocolName()).as(groupId).isEmpty();
                assertThat(refused.leader()).as(groupId).isEmpty();
                assertThat(refused.skipAssignment()).as(groupId).isFalse();
                assertThat(refused.members()).as(groupId).isEmpty();
            }
        }
    }

    @Test
    void aSyncNamingAnotherProtocolTypeOrNameIsInconsistentAndASuccessCarriesTheGroups() throws IOException {
        Struct member = joinAndSyncAlone("protocols", 10_000);
        java.util.function.BiFunction<String, String, Struct> sync = (type, name) -> {
            try {
                return client.call(ApiKey.SYNC_GROUP, SYNC_V5, ApiKey.SYNC_GROUP.request().newMessage()
                        .set("GroupId", "protocols").set("GenerationId", member.getInt32("GenerationId"))
                        .set("MemberId", member.getString("MemberId")).set("ProtocolType", type)
                        .set("ProtocolName", name));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };

        Struct otherType = sync.apply("connect", "range");
        assertThat(otherType.getInt16("ErrorCode")).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
        assertThat(otherType.getString("ProtocolType")).as("an error carries none").isNull();
        assertThat(sync.apply("consumer", "roundrobin").getInt16("ErrorCode"))
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
        Struct unnamed = sync.apply(null, null);
        assertThat(unnamed.getInt16("ErrorCode")).as("nothing named, nothing to check").isEqualTo(Errors.NONE.code());
        assertThat(unnamed.getString("ProtocolType")).isEqualTo("consumer");
        assertThat(unnamed.getString("ProtocolName")).isEqualTo("range");
    }

    @Test
    void aMemberThatNeverSyncsIsRemovedWhenTheRebalanceTimeoutRunsOut() throws Exception {
        // A 30 s session outlasts the 5 s rebalance timeout: only the pending-sync timeout can remove the follower.
        Struct leader = joinAndSyncAlone("unsynced", 30_000);
        String leaderId = leader.getString("MemberId");
        try (GroupWireClient follower = new GroupWireClient(broker.boundPort("PLAINTEXT"))) {
            String followerId = follower.call(ApiKey.JOIN_GROUP, JOIN_V9, joinRequest("unsynced", "", 30_000,
                    new byte[0])).getString("MemberId");
            CompletableFuture<Struct> followerJoin = callAsync(follower, ApiKey.JOIN_GROUP, JOIN_V9,
                    joinRequest("unsynced", followerId, 30_000, new byte[0]).set("RebalanceTimeoutMs", 5_000));
            Eventually.await(() -> client.stateIs("unsynced", "PreparingRebalance"), "the follower's join");
            Struct rejoined = client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                    joinRequest("unsynced", leaderId, 30_000, new byte[0]).set("RebalanceTimeoutMs", 5_000));
            assertThat(rejoined.getInt32("GenerationId")).isEqualTo(2);
            assertThat(followerJoin.get(30, TimeUnit.SECONDS).getInt32("GenerationId")).isEqualTo(2);
            Struct leaderSync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", "unsynced")
                    .set("GenerationId", 2).set("MemberId", leaderId);
            assertThat(client.call(ApiKey.SYNC_GROUP, SYNC_V5, leaderSync).getInt16("ErrorCode"))
                    .isEqualTo(Errors.NONE.code());
            clock.advance(4_999);
            assertThat(heartbeat("unsynced", 2, followerId).getInt16("ErrorCode")).as("alive, but never syncs")
                    .isEqualTo(Errors.NONE.code());
            assertThat(describedState("unsynced")).isEqualTo("Stable");

            clock.advance(1);

            assertThat(heartbeat("unsynced", 2, followerId).getInt16("ErrorCode"))
                    .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
            assertThat(heartbeat("unsynced", 2, leaderId).getInt16("ErrorCode"))
                    .isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
            assertThat(client.describedMemberCount("unsynced")).isEqualTo(1);
        }
    }

    private static CompletableFuture<Struct> callAsync(GroupWireClient client, ApiKey api, int version,
                                                       Struct body) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return client.call(api, version, body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Test
    void sessionTimeoutsOutsideTheBrokerRangeAreInvalid() throws IOException {
        assertThat(join("timeouts", "", 100).getInt16("ErrorCode")).isEqualTo(Errors.INVALID_SESSION_TIMEOUT.code());
        assertThat(join("timeouts", "", 1_800_001).getInt16("ErrorCode"))
                .isEqualTo(Errors.INVALID_SESSION_TIMEOUT.code());
    }

    @Test
    void aMemberThatStopsHeartbeatingIsRemovedAfterItsSessionTimeout() throws Exception {
        Struct member = joinAndSyncAlone("silent", 2_000);
        clock.advance(1_999);
        assertThat(describedState("silent")).isEqualTo("Stable");

        clock.advance(1);

        assertThat(describedState("silent")).isEqualTo("Empty");
        assertThat(heartbeat("silent", member.getInt32("GenerationId"), member.getString("MemberId"))
                .getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aSimpleCommitIsFetchedBackAndUnknownOffsetsAreMinusOne() throws IOException {
        Struct commit = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", "simple")
                .set("GenerationIdOrMemberEpoch", -1).set("MemberId", "");
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("ledger", 2));
        commit.addElement("Topics").set("Name", "ledger").addElement("Partitions").set("PartitionIndex", 1)
                .set("CommittedOffset", 42L).set("CommittedMetadata", "note");
        Struct committed = client.call(ApiKey.OFFSET_COMMIT, 9, commit);
        assertThat(committed.getStructs("Topics").get(0).getStructs("Partitions").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());

        Struct fetch = ApiKey.OFFSET_FETCH.request().newMessage();
        fetch.addElement("Groups").set("GroupId", "simple").addElement("Topics").set("Name", "ledger")
                .set("PartitionIndexes", List.of(0, 1));
        Struct fetched = client.call(ApiKey.OFFSET_FETCH, 8, fetch);

        List<Struct> partitions = fetched.getStructs("Groups").get(0).getStructs("Topics").get(0)
                .getStructs("Partitions");
        assertThat(partitions.get(0).getInt64("CommittedOffset")).isEqualTo(-1L);
        assertThat(partitions.get(1).getInt64("CommittedOffset")).isEqualTo(42L);
        assertThat(partitions.get(1).getString("Metadata")).isEqualTo("note");
    }

    @Test
    void version10CommitsAndFetchesByTopicIdAndRefusesUnknownIds() throws IOException {
        UUID id = client.call(ApiKey.CREATE_TOPICS, 7, createTopic("by-id", 1)).getStructs("Topics").get(0)
                .getUuid("TopicId");
        UUID unknown = UUID.randomUUID();
        Struct commit = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", "ids")
                .set("GenerationIdOrMemberEpoch", -1).set("MemberId", "");
        commit.addElement("Topics").set("TopicId", id).addElement("Partitions").set("PartitionIndex", 0)
                .set("CommittedOffset", 7L).set("CommittedMetadata", null);
        commit.addElement("Topics").set("TopicId", unknown).addElement("Partitions").set("PartitionIndex", 0)
                .set("CommittedOffset", 7L).set("CommittedMetadata", null);
        commit.addElement("Topics").set("TopicId", id).addElement("Partitions").set("PartitionIndex", 5)
                .set("CommittedOffset", 7L).set("CommittedMetadata", null);
        List<Struct> committed = client.call(ApiKey.OFFSET_COMMIT, 10, commit).getStructs("Topics");
        assertThat(committed.get(0).getStructs("Partitions").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
        assertThat(committed.get(1).getStructs("Partitions").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
        // A known topic's missing partition, named by id: Kafka 4.3's KafkaApis answers UNKNOWN_TOPIC_OR_PARTITION.
        assertThat(committed.get(2).getStructs("Partitions").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());

        Struct fetch = ApiKey.OFFSET_FETCH.request().newMessage();
        Struct group = fetch.addElement("Groups").set("GroupId", "ids");
        group.addElement("Topics").set("TopicId", id).set("PartitionIndexes", List.of(0));
        group.addElement("Topics").set("TopicId", unknown).set("PartitionIndexes", List.of(0));
        List<Struct> fetched = client.call(ApiKey.OFFSET_FETCH, 10, fetch).getStructs("Groups").get(0)
                .getStructs("Topics");

        assertThat(fetched).extracting(t -> t.getUuid("TopicId")).containsExactlyInAnyOrder(id, unknown);
        for (Struct topic : fetched) {
            Struct partition = topic.getStructs("Partitions").get(0);
            if (topic.getUuid("TopicId").equals(id)) {
                assertThat(partition.getInt64("CommittedOffset")).isEqualTo(7L);
            } else {
                assertThat(partition.getInt16("ErrorCode")).isEqualTo(Errors.UNKNOWN_TOPIC_ID.code());
            }
        }
    }

    @Test
    void aCommitForAGenerationOfAGroupThatDoesNotExistIsRefused() throws IOException {
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("lonely", 1));

        // Kafka answers GROUP_ID_NOT_FOUND from v9, and ILLEGAL_GENERATION to the older versions.
        assertThat(commitError(8, "nobody", 3, "ghost", "lonely", 1L)).isEqualTo(Errors.ILLEGAL_GENERATION.code());
        assertThat(commitError(9, "nobody", 3, "ghost", "lonely", 1L)).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(describedState("nobody")).isEqualTo("Dead");
    }

    @Test
    void aCommitWithoutAGenerationIsSimpleWhateverMemberItNamesWhileTheGroupIsEmpty() throws IOException {
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("manual", 1));

        assertThat(commitError(9, "by-hand", -1, "some-member", "manual", 1L)).isEqualTo(Errors.NONE.code());
        assertThat(committedOffset("by-hand", "manual")).isEqualTo(1L);

        String memberId = joinAndSyncAlone("managed", 10_000).getString("MemberId");
        assertThat(commitError(9, "managed", -1, "", "manual", 1L)).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(commitError(9, "managed", -1, "stranger", "manual", 1L)).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(commitError(9, "managed", -1, memberId, "manual", 1L)).isEqualTo(Errors.ILLEGAL_GENERATION.code());
    }

    @Test
    void aSimpleCommitThatStoresNothingLeavesNoGroupBehind() throws IOException {
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("real", 1));
        Struct tooLong = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", "phantom")
                .set("GenerationIdOrMemberEpoch", -1).set("MemberId", "");
        tooLong.addElement("Topics").set("Name", "real").addElement("Partitions").set("PartitionIndex", 0)
                .set("CommittedOffset", 1L).set("CommittedMetadata", "x".repeat(5000));
        assertThat(client.call(ApiKey.OFFSET_COMMIT, 9, tooLong).getStructs("Topics").get(0).getStructs("Partitions")
                .get(0).getInt16("ErrorCode")).isEqualTo(Errors.OFFSET_METADATA_TOO_LARGE.code());
        assertThat(commitError(9, "ghost-town", -1, "", "no-such-topic", 1L))
                .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        simpleCommit("real-group", "real", 1L);

        List<String> listed = client.call(ApiKey.LIST_GROUPS, 4, ApiKey.LIST_GROUPS.request().newMessage()
                .set("StatesFilter", List.of())).getStructs("Groups").stream().map(g -> g.getString("GroupId")).toList();

        assertThat(listed).containsExactly("real-group");
    }

    /** Commits the offset for partition 0 of the topic; answers that partition's error code. */
    private short commitError(int version, String groupId, int generation, String memberId, String topic,
                              long offset) throws IOException {
        Struct commit = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", groupId)
                .set("GenerationIdOrMemberEpoch", generation).set("MemberId", memberId);
        commit.addElement("Topics").set("Name", topic).addElement("Partitions").set("PartitionIndex", 0)
                .set("CommittedOffset", offset).set("CommittedMetadata", "");
        return client.call(ApiKey.OFFSET_COMMIT, version, commit).getStructs("Topics").get(0)
                .getStructs("Partitions").get(0).getInt16("ErrorCode");
    }

    @Test
    void aRestartedStaticLeaderTakesItsPlaceBackAndItsOldIdIsFenced() throws IOException {
        String leaderId = joinAndSyncStatic("statics", "leader-host").getString("MemberId");

        // The leader's process restarts and comes back without its member id: it takes its own place back.
        Struct restarted = client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                joinRequest("statics", "", 10_000, new byte[0]).set("GroupInstanceId", "leader-host"));
        String newId = restarted.getString("MemberId");

        assertThat(restarted.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(newId).isNotEqualTo(leaderId);
        assertThat(restarted.getString("Leader")).isEqualTo(newId);
        Struct oldHeartbeat = ApiKey.HEARTBEAT.request().newMessage().set("GroupId", "statics")
                .set("GenerationId", restarted.getInt32("GenerationId")).set("MemberId", leaderId)
                .set("GroupInstanceId", "leader-host");
        assertThat(client.call(ApiKey.HEARTBEAT, HEARTBEAT_V4, oldHeartbeat).getInt16("ErrorCode"))
                .isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(client.call(ApiKey.JOIN_GROUP, JOIN_V9, joinRequest("statics", leaderId, 10_000, new byte[0])
                .set("GroupInstanceId", "leader-host")).getInt16("ErrorCode"))
                .isEqualTo(Errors.FENCED_INSTANCE_ID.code());
    }

    @Test
    void aRestartedStaticLeaderOfAStableGroupKeepsItsGenerationAndSkipsTheAssignment() throws IOException {
        // librdkafka's 0102_static_group_rebalance: a static member's restart must not rebalance the others.
        Struct leader = joinAndSyncStatic("kept", "leader-host");
        int generation = leader.getInt32("GenerationId");

        Struct restarted = client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                joinRequest("kept", "", 10_000, new byte[0]).set("GroupInstanceId", "leader-host"));

        assertThat(restarted.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(restarted.getInt32("GenerationId")).as("no rebalance").isEqualTo(generation);
        assertThat(restarted.getString("Leader")).isEqualTo(restarted.getString("MemberId"));
        assertThat(restarted.getBool("SkipAssignment")).isTrue();
        assertThat(restarted.getStructs("Members")).hasSize(1);
    }

    @Test
    void beforeV9ARestartedStaticLeaderIsToldThePreviousLeaderSoThatItDoesNotAssign() throws IOException {
        Struct leader = joinAndSyncStatic("kept-v5", "leader-host");

        Struct restarted = client.call(ApiKey.JOIN_GROUP, 5,
                joinRequest("kept-v5", "", 10_000, new byte[0]).set("GroupInstanceId", "leader-host"));

        assertThat(restarted.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(restarted.getInt32("GenerationId")).isEqualTo(leader.getInt32("GenerationId"));
        assertThat(restarted.getString("Leader")).isEqualTo(leader.getString("MemberId"));
        assertThat(restarted.getStructs("Members")).isEmpty();
    }

    /** Joins alone as a static member and syncs an assignment: the leader of a Stable group; answers the join. */
    private Struct joinAndSyncStatic(String groupId, String instanceId) throws IOException {
        Struct joined = client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                joinRequest(groupId, "", 10_000, new byte[0]).set("GroupInstanceId", instanceId));
        assertThat(joined.getInt16("ErrorCode")).as("static members skip MEMBER_ID_REQUIRED")
                .isEqualTo(Errors.NONE.code());
        String memberId = joined.getString("MemberId");
        Struct sync = ApiKey.SYNC_GROUP.request().newMessage().set("GroupId", groupId)
                .set("GenerationId", joined.getInt32("GenerationId")).set("MemberId", memberId)
                .set("GroupInstanceId", instanceId);
        sync.addElement("Assignments").set("MemberId", memberId).set("Assignment", new byte[]{1});
        assertThat(client.call(ApiKey.SYNC_GROUP, SYNC_V5, sync).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        return joined;
    }

    @Test
    void aStaticMemberLeavesByItsInstanceId() throws IOException {
        Struct joined = client.call(ApiKey.JOIN_GROUP, JOIN_V9,
                joinRequest("leavers", "", 10_000, new byte[0]).set("GroupInstanceId", "host-1"));
        assertThat(joined.getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", "leavers");
        leave.addElement("Members").set("MemberId", "").set("GroupInstanceId", "host-1");

        Struct left = client.call(ApiKey.LEAVE_GROUP, 5, leave);

        assertThat(left.getStructs("Members").get(0).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(describedState("leavers")).isEqualTo("Empty");
    }

    @Test
    void aDeletedGroupStaysDeletedAcrossARestartWhileOthersKeepTheirOffsets() throws Exception {
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("kept", 1));
        simpleCommit("doomed", "kept", 5L);
        simpleCommit("keeper", "kept", 9L);
        Struct delete = ApiKey.DELETE_GROUPS.request().newMessage().set("GroupsNames", List.of("doomed"));
        assertThat(client.call(ApiKey.DELETE_GROUPS, 2, delete).getStructs("Results").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());

        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of());
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));

        assertThat(committedOffset("doomed", "kept")).isEqualTo(-1L);
        assertThat(committedOffset("keeper", "kept")).isEqualTo(9L);
        assertThat(describedState("keeper")).isEqualTo("Empty");
    }

    @Test
    void metadataOverTheLimitIsRefusedForItsPartitionOnly() throws IOException {
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("annotated", 3));
        Struct commit = ApiKey.OFFSET_COMMIT.request().newMessage().set("GroupId", "verbose")
                .set("GenerationIdOrMemberEpoch", -1).set("MemberId", "");
        Struct topic = commit.addElement("Topics").set("Name", "annotated");
        topic.addElement("Partitions").set("PartitionIndex", 0).set("CommittedOffset", 10L)
                .set("CommittedMetadata", "x".repeat(4097)); // offset.metadata.max.bytes is 4096 by default
        topic.addElement("Partitions").set("PartitionIndex", 1).set("CommittedOffset", 20L)
                .set("CommittedMetadata", "x".repeat(4096));
        topic.addElement("Partitions").set("PartitionIndex", 2).set("CommittedOffset", 30L)
                .set("CommittedMetadata", null);

        List<Struct> partitions = client.call(ApiKey.OFFSET_COMMIT, 9, commit).getStructs("Topics").get(0)
                .getStructs("Partitions");

        assertThat(partitions).extracting(p -> p.getInt16("ErrorCode")).containsExactly(
                Errors.OFFSET_METADATA_TOO_LARGE.code(), Errors.NONE.code(), Errors.NONE.code());
        Struct fetch = ApiKey.OFFSET_FETCH.request().newMessage();
        fetch.addElement("Groups").set("GroupId", "verbose").addElement("Topics").set("Name", "annotated")
                .set("PartitionIndexes", List.of(0, 1, 2));
        assertThat(client.call(ApiKey.OFFSET_FETCH, 8, fetch).getStructs("Groups").get(0).getStructs("Topics")
                .get(0).getStructs("Partitions")).extracting(p -> p.getInt64("CommittedOffset"))
                .containsExactly(-1L, 20L, 30L);
    }

    @Test
    void aDeleteTheOffsetsTopicRefusesKeepsTheWholeGroup() throws Exception {
        client.call(ApiKey.CREATE_TOPICS, 7, createTopic("precious", 1));
        simpleCommit("stubborn", "precious", 11L);
        // A batch of one tombstone is larger than this: the offsets topic refuses the delete's write.
        assertThat(client.alterOffsetsTopic(Map.of("max.message.bytes", "32"))).isEqualTo(Errors.NONE.code());

        assertThat(deleteGroup("stubborn")).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(describedState("stubborn")).isEqualTo("Empty");
        assertThat(committedOffset("stubborn", "precious")).isEqualTo(11L);

        assertThat(client.alterOffsetsTopic(Map.of())).isEqualTo(Errors.NONE.code());
        assertThat(deleteGroup("stubborn")).isEqualTo(Errors.NONE.code());
        assertThat(committedOffset("stubborn", "precious")).isEqualTo(-1L);
    }

    private short deleteGroup(String groupId) throws IOException {
        Struct delete = ApiKey.DELETE_GROUPS.request().newMessage().set("GroupsNames", List.of(groupId));
        return client.call(ApiKey.DELETE_GROUPS, 2, delete).getStructs("Results").get(0).getInt16("ErrorCode");
    }

    private void simpleCommit(String groupId, String topic, long offset) throws IOException {
        assertThat(commitError(9, groupId, -1, "", topic, offset)).isEqualTo(Errors.NONE.code());
    }

    private long committedOffset(String groupId, String topic) throws IOException {
        Struct fetch = ApiKey.OFFSET_FETCH.request().newMessage();
        fetch.addElement("Groups").set("GroupId", groupId).addElement("Topics").set("Name", topic)
                .set("PartitionIndexes", List.of(0));
        return client.call(ApiKey.OFFSET_FETCH, 8, fetch).getStructs("Groups").get(0).getStructs("Topics").get(0)
                .getStructs("Partitions").get(0).getInt64("CommittedOffset");
    }

    private static Struct createTopic(String name, int partitions) {
        Struct request = ApiKey.CREATE_TOPICS.request().newMessage();
        request.addElement("Topics").set("Name", name).set("NumPartitions", partitions)
                .set("ReplicationFactor", (short) 1);
        return request;
    }
}
