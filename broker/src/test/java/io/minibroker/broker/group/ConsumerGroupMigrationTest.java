package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.HeartbeatRequestView;
import io.minibroker.protocol.message.view.HeartbeatResponseView;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.SyncGroupRequestView;
import io.minibroker.protocol.message.view.SyncGroupResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The online migration on the wire, time driven by a ManualClock: a classic member played by hand (its embedded
 * protocol written by kafka-clients' own ConsumerProtocol) in a group a KIP-848 member joins; the group upgraded,
 * the classic member reconciled through JoinGroup/SyncGroup/Heartbeat, the group kept across a restart, the
 * classic member's own session timeout, the downgrade when the KIP-848 member leaves, and the policy refusing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupMigrationTest {

    private static final int CLASSIC_SESSION_MS = 10_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;
    /** The group the classic join, sync and consumer heartbeat helpers name. */
    private String groupId = "g";

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private void start(Map<String, String> config) throws Exception {
        broker = TestBrokers.start(logDir, config, clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    private void createTopic() throws IOException {
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("t").numPartitions(4).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
    }

    private static byte[] subscription(List<TopicPartition> owned) {
        ByteBuffer buffer = org.apache.kafka.clients.consumer.internals.ConsumerProtocol.serializeSubscription(
                new ConsumerPartitionAssignor.Subscription(List.of("t"), null, owned));
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    private static List<TopicPartition> partitions(byte[] assignment) {
        return org.apache.kafka.clients.consumer.internals.ConsumerProtocol.deserializeAssignment(
                ByteBuffer.wrap(assignment)).partitions();
    }

    private JoinGroupResponseView classicJoin(String memberId) throws IOException {
        return classicJoin(memberId, 30_000);
    }

    private JoinGroupResponseView classicJoin(String memberId, int rebalanceTimeoutMs) throws IOException {
        JoinGroupRequestView join = new JoinGroupRequestView().groupId(groupId).sessionTimeoutMs(CLASSIC_SESSION_MS)
                .rebalanceTimeoutMs(rebalanceTimeoutMs).memberId(memberId).protocolType("consumer");
        join.addProtocol().name("range").metadata(subscription(List.of()));
        return new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9, join.struct()));
    }

    private SyncGroupResponseView classicSync(String memberId, int generation, byte[] leaderAssignment)
            throws IOException {
        SyncGroupRequestView sync = new SyncGroupRequestView().groupId(groupId).generationId(generation)
                .memberId(memberId).protocolType("consumer").protocolName("range");
        if (leaderAssignment != null) {
            sync.addAssignment().memberId(memberId).assignment(leaderAssignment);
        }
        return new SyncGroupResponseView(client.call(ApiKey.SYNC_GROUP, 5, sync.struct()));
    }

    private short classicHeartbeat(String memberId, int generation) throws IOException {
        return new HeartbeatResponseView(client.call(ApiKey.HEARTBEAT, 4, new HeartbeatRequestView().groupId("g")
                .generationId(generation).memberId(memberId).struct())).errorCode();
    }

    private ConsumerGroupHeartbeatResponseView heartbeat(String memberId, int epoch) throws IOException {
        ConsumerGroupHeartbeatRequestView request = new ConsumerGroupHeartbeatRequestView().groupId(groupId)
                .memberId(memberId).memberEpoch(epoch);
        if (epoch == 0) {
            request.rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of("t")).topicPartitions(List.of());
        }
        return new ConsumerGroupHeartbeatResponseView(client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1,
                request.struct()));
    }

    private ConsumerGroupDescribeResponseView.DescribedGroup describe() throws IOException {
        return new ConsumerGroupDescribeResponseView(client.call(ApiKey.CONSUMER_GROUP_DESCRIBE, 1,
                new ConsumerGroupDescribeRequestView().groupIds(List.of("g")).struct())).groups().get(0);
    }

    /** A classic group of one member owning all four partitions at generation 1; returns its member id. */
    private String stableClassicGroup() throws IOException {
        String memberId = classicJoin("").memberId(); // MEMBER_ID_REQUIRED
        JoinGroupResponseView joined = classicJoin(memberId);
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(joined.generationId()).isEqualTo(1);
        byte[] all = ConsumerProtocol.assignmentBytes(Map.of("t", java.util.Set.of(0, 1, 2, 3)));
        assertThat(classicSync(memberId, 1, all).errorCode()).isEqualTo(Errors.NONE.code());
        return memberId;
    }

    /** The group upgraded by m1's join, the classic member reconciled to half the partitions at epoch 2. */
    private String upgradedAndReconciled() throws Exception {
        return upgradedAndReconciled(Map.of());
    }

    private String upgradedAndReconciled(Map<String, String> config) throws Exception {
        start(config);
        createTopic();
        String classic = stableClassicGroup();

        ConsumerGroupHeartbeatResponseView joined = heartbeat("m1", 0);
        assertThat(joined.errorCode()).as("the classic group upgraded").isEqualTo(Errors.NONE.code());
        assertThat(joined.memberEpoch()).isEqualTo(2);
        assertThat(joined.assignment().topicPartitions()).as("its partitions still held by the classic member")
                .isEmpty();
        assertThat(describe().members()).hasSize(2);

        assertThat(classicHeartbeat(classic, 1)).as("told to rejoin").isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
        JoinGroupResponseView rejoined = classicJoin(classic); // eager: it owns nothing now
        assertThat(rejoined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(rejoined.generationId()).isEqualTo(2);
        assertThat(rejoined.leader()).isEmpty();
        SyncGroupResponseView synced = classicSync(classic, 2, null);
        assertThat(synced.errorCode()).isEqualTo(Errors.NONE.code());
        List<TopicPartition> kept = partitions(synced.assignment());
        assertThat(kept).hasSize(2);
        assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.NONE.code());

        ConsumerGroupHeartbeatResponseView released = heartbeat("m1", 2);
        assertThat(released.assignment().topicPartitions()).singleElement()
                .satisfies(tp -> assertThat(tp.partitions()).hasSize(2)
                        .doesNotContainAnyElementsOf(kept.stream().map(TopicPartition::partition).toList()));
        return classic;
    }

    @Test
    void aClassicGroupIsUpgradedAndItsClassicMemberReconciledThroughTheClassicProtocol() throws Exception {
        String classic = upgradedAndReconciled();
        assertThat(classicHeartbeat(classic, 1)).isEqualTo(Errors.ILLEGAL_GENERATION.code());
        assertThat(describe().groupState()).isEqualTo("Stable");
        assertThat(describe().members()).extracting(m -> m.memberId() + ":" + m.memberType())
                .containsExactlyInAnyOrder(classic + ":0", "m1:1");

        // A generation ahead of its epoch (2): one behind may count for partitions it kept since, as Kafka 4.3.1.
        OffsetCommitRequestView stale = new OffsetCommitRequestView().groupId("g").memberId(classic)
                .generationIdOrMemberEpoch(3);
        stale.addTopic().name("t").addPartition().partitionIndex(0).committedOffset(5);
        assertThat(new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, stale.struct())).topics()
                .get(0).partitions().get(0).errorCode()).as("a classic member is told of generations")
                .isEqualTo(Errors.ILLEGAL_GENERATION.code());
    }

    @Test
    void aClassicMemberSyncNamingAnotherProtocolTypeOrNameIsInconsistent() throws Exception {
        String classic = upgradedAndReconciled();
        SyncGroupRequestView otherType = new SyncGroupRequestView().groupId("g").generationId(2).memberId(classic)
                .protocolType("connect").protocolName("range");
        SyncGroupRequestView otherName = new SyncGroupRequestView().groupId("g").generationId(2).memberId(classic)
                .protocolType("consumer").protocolName("roundrobin");

        for (SyncGroupRequestView sync : List.of(otherType, otherName)) {
            assertThat(new SyncGroupResponseView(client.call(ApiKey.SYNC_GROUP, 5, sync.struct())).errorCode())
                    .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
        }
        assertThat(classicSync(classic, 2, null).protocolName()).as("a success echoes the request's")
                .isEqualTo("range");
    }

    private static JoinGroupRequestView staticClassicJoin(String memberId, String instanceId) {
        JoinGroupRequestView join = new JoinGroupRequestView().groupId("g").sessionTimeoutMs(CLASSIC_SESSION_MS)
                .rebalanceTimeoutMs(30_000).memberId(memberId).groupInstanceId(instanceId).protocolType("consumer");
        join.addProtocol().name("range").metadata(subscription(List.of()));
        return join;
    }

    /**
     * A classic group of one static member (instance host-1) owning all four partitions, whose process restarts
     * with group.protocol=consumer as m2: a classic member never leaves with epoch -2. Returns the classic join.
     */
    private JoinGroupResponseView staticClassicMemberRestartedWithTheConsumerProtocol() throws Exception {
        start(Map.of());
        createTopic();
        JoinGroupResponseView joined = new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9,
                staticClassicJoin("", "host-1").struct()));
        byte[] all = ConsumerProtocol.assignmentBytes(Map.of("t", java.util.Set.of(0, 1, 2, 3)));
        SyncGroupRequestView sync = new SyncGroupRequestView().groupId("g").generationId(joined.generationId())
                .memberId(joined.memberId()).groupInstanceId("host-1");
        sync.addAssignment().memberId(joined.memberId()).assignment(all);
        assertThat(new SyncGroupResponseView(client.call(ApiKey.SYNC_GROUP, 5, sync.struct())).errorCode())
                .isEqualTo(Errors.NONE.code());

        ConsumerGroupHeartbeatResponseView restarted = new ConsumerGroupHeartbeatResponseView(client.call(
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("g")
                        .memberId("m2").memberEpoch(0).instanceId("host-1").rebalanceTimeoutMs(30_000)
                        .subscribedTopicNames(List.of("t")).topicPartitions(List.of()).struct()));
        assertThat(restarted.errorCode()).isEqualTo(Errors.NONE.code());
        return joined;
    }

    @Test
    void aStaticClassicMemberRestartedWithTheConsumerProtocolTakesItsInstanceOver() throws Exception {
        staticClassicMemberRestartedWithTheConsumerProtocol();

        assertThat(describe().members()).singleElement().satisfies(member -> {
            assertThat(member.memberId()).isEqualTo("m2");
            assertThat(member.instanceId()).isEqualTo("host-1");
        });
    }

    @Test
    void aClassicMemberWhoseInstanceWasTakenOverIsFencedAndCannotTakeItBack() throws Exception {
        JoinGroupResponseView classic = staticClassicMemberRestartedWithTheConsumerProtocol();

        assertThat(new HeartbeatResponseView(client.call(ApiKey.HEARTBEAT, 4, new HeartbeatRequestView()
                .groupId("g").generationId(classic.generationId()).memberId(classic.memberId())
                .groupInstanceId("host-1").struct())).errorCode()).isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9,
                staticClassicJoin(classic.memberId(), "host-1").struct())).errorCode())
                .isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(describe().members()).singleElement().satisfies(member -> {
            assertThat(member.memberId()).isEqualTo("m2");
            assertThat(member.instanceId()).isEqualTo("host-1");
        });
        assertThat(new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9,
                staticClassicJoin(classic.memberId(), "host-2").struct())).errorCode())
                .as("an unknown instance under a member id").isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aStaticConsumerProtocolMemberRestartedWithTheClassicProtocolTakesItsInstanceOver() throws Exception {
        start(Map.of());
        createTopic();
        ConsumerGroupHeartbeatResponseView joined = new ConsumerGroupHeartbeatResponseView(client.call(
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("g")
                        .memberId("m1").memberEpoch(0).instanceId("host-1").rebalanceTimeoutMs(30_000)
                        .subscribedTopicNames(List.of("t")).topicPartitions(List.of()).struct()));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());

        JoinGroupResponseView restarted = new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9,
                staticClassicJoin("", "host-1").struct()));

        assertThat(restarted.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe().members()).singleElement().satisfies(member -> {
            assertThat(member.memberId()).isEqualTo(restarted.memberId()).isNotEqualTo("m1");
            assertThat(member.instanceId()).isEqualTo("host-1");
        });
    }

    @Test
    void aNewClassicMemberJoinsTheMixedGroup() throws Exception {
        upgradedAndReconciled();
        JoinGroupResponseView required = classicJoin("");
        assertThat(required.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        JoinGroupResponseView joined = classicJoin(required.memberId());
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(joined.generationId()).as("the group epoch its join moved to").isEqualTo(3);
        assertThat(describe().members()).hasSize(3);
        assertThat(describe().groupEpoch()).isEqualTo(3);
    }

    @Test
    void theMixedGroupSurvivesARestart() throws Exception {
        String classic = upgradedAndReconciled();
        client.close();
        broker.close();
        start(Map.of());
        assertThat(describe().members()).hasSize(2);
        assertThat(classicHeartbeat(classic, 2)).as("still a classic-protocol member").isEqualTo(Errors.NONE.code());
        assertThat(heartbeat("m1", 2).errorCode()).isEqualTo(Errors.NONE.code());
    }

    @Test
    void aClassicMemberIsFencedAfterItsOwnSessionTimeout() throws Exception {
        String classic = upgradedAndReconciled();
        clock.advance(CLASSIC_SESSION_MS - 1);
        assertThat(heartbeat("m1", 2).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe().members()).hasSize(2);
        clock.advance(1);
        awaitMembers(1);
        assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    /** Waits (on the coordinator's thread, not on time: the clock stands still) until the group has that many. */
    private void awaitMembers(int count) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (describe().members().size() != count) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void aClassicMemberThatJoinsButNeverSyncsIsFencedAfterItsRebalanceTimeout() throws Exception {
        upgradedAndReconciled();
        String joiner = classicJoin("", 4_000).memberId();
        JoinGroupResponseView joined = classicJoin(joiner, 4_000);
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe().members()).hasSize(3);
        clock.advance(3_999);
        assertThat(classicHeartbeat(joiner, joined.generationId())).as("its session goes on, unsynced")
                .isIn(Errors.NONE.code(), Errors.REBALANCE_IN_PROGRESS.code());
        assertThat(describe().members()).hasSize(3);
        clock.advance(1);
        awaitMembers(2);
        assertThat(classicHeartbeat(joiner, joined.generationId())).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aClassicMemberThatSyncsIsNotFencedByItsRebalanceTimeout() throws Exception {
        upgradedAndReconciled();
        String joiner = classicJoin("", 4_000).memberId();
        JoinGroupResponseView joined = classicJoin(joiner, 4_000);
        assertThat(classicSync(joiner, joined.generationId(), null).errorCode()).isEqualTo(Errors.NONE.code());
        clock.advance(4_000);
        assertThat(classicHeartbeat(joiner, joined.generationId())).as("still a member")
                .isIn(Errors.NONE.code(), Errors.REBALANCE_IN_PROGRESS.code());
        assertThat(describe().members()).hasSize(3);
    }

    @Test
    void aClassicMemberToldToRejoinThatNeverDoesIsFencedAfterItsRebalanceTimeout() throws Exception {
        String classic = upgradedAndReconciled();
        assertThat(heartbeat("m2", 0).errorCode()).as("a new member moves the group epoch on")
                .isEqualTo(Errors.NONE.code());
        // Its session kept alive by heartbeats, each told to rejoin; timed from the first telling, not the last.
        for (int i = 0; i < 3; i++) {
            assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
            clock.advance(9_000);
        }
        assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
        clock.advance(2_999);
        assertThat(describe().members()).hasSize(3);
        clock.advance(1);
        awaitMembers(2);
        assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aClassicMemberThatRejoinsInTimeStays() throws Exception {
        String classic = upgradedAndReconciled();
        assertThat(heartbeat("m2", 0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
        clock.advance(9_000);
        JoinGroupResponseView rejoined = classicJoin(classic);
        assertThat(rejoined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(classicSync(classic, rejoined.generationId(), null).errorCode()).isEqualTo(Errors.NONE.code());
        for (int step : new int[] {9_000, 9_000, 4_000}) { // past the first telling's 30 s, heartbeating
            clock.advance(step);
            assertThat(classicHeartbeat(classic, rejoined.generationId()))
                    .isIn(Errors.NONE.code(), Errors.REBALANCE_IN_PROGRESS.code());
        }
        assertThat(describe().members()).extracting(m -> m.memberId()).contains(classic);
    }

    @Test
    void theGroupIsDowngradedWhenTheLastConsumerProtocolMemberLeaves() throws Exception {
        String classic = upgradedAndReconciled();
        assertThat(heartbeat("m1", -1).errorCode()).isEqualTo(Errors.NONE.code());

        assertThat(describe().errorCode()).as("no longer a consumer group").isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(client.describedState("g")).isEqualTo("PreparingRebalance");
        assertThat(classicHeartbeat(classic, 2)).isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
        JoinGroupResponseView rejoined = classicJoin(classic);
        assertThat(rejoined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(rejoined.generationId()).as("the consumer group's epoch, 2, then a rebalance").isEqualTo(3);
        assertThat(rejoined.leader()).isEqualTo(classic);

        client.close();
        broker.close();
        start(Map.of());
        assertThat(describe().errorCode()).as("still classic after a restart")
                .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(client.describedMemberCount("g")).isEqualTo(1);
    }

    /**
     * Kafka's getOrMaybeCreateConsumerGroup adds the empty classic group's tombstone to the join's records: the
     * classic metadata is deleted in the batch that writes the consumer group's first records.
     */
    @Test
    void anEmptyClassicGroupBecomesAConsumerGroupItsMetadataTombstonedInTheSameBatch() throws Exception {
        start(Map.of());
        createTopic();
        String classic = stableClassicGroup();
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", "g");
        leave.addElement("Members").set("MemberId", classic);
        assertThat(client.call(ApiKey.LEAVE_GROUP, 4, leave).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(client.describedState("g")).isEqualTo("Empty");

        assertThat(heartbeat("m1", 0).errorCode()).isEqualTo(Errors.NONE.code());
        client.close();
        broker.close();
        ByteBuffer classicMetadata = ByteBuffer.wrap(GroupMetadataRecord.key("g"));
        ByteBuffer consumerMetadata = ConsumerGroupRecords.key(ConsumerGroupRecords.METADATA, "g", null);
        List<Map<ByteBuffer, byte[]>> batches = OffsetsTopicSegments.batches(logDir);
        assertThat(batches).filteredOn(batch -> batch.containsKey(consumerMetadata)).first()
                .satisfies(first -> {
                    assertThat(first).containsEntry(classicMetadata, null);
                    assertThat(first.keySet().iterator().next()).as("the tombstone first, as Kafka's records")
                            .isEqualTo(classicMetadata);
                });
        start(Map.of());
        assertThat(describe().members()).extracting(m -> m.memberId()).containsExactly("m1");
    }

    @Test
    void theDisabledPolicyRefusesTheUpgrade() throws Exception {
        start(Map.of("group.consumer.migration.policy", "DISABLED")); // any case, as Kafka takes it
        createTopic();
        stableClassicGroup();
        ConsumerGroupHeartbeatResponseView refused = heartbeat("m1", 0);
        assertThat(refused.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(refused.errorMessage()).isEqualTo("Cannot upgrade classic group g to consumer group because the"
                + " online upgrade is disabled.");
    }

    @Test
    void theDisabledPolicyRefusesAClassicJoinToAConsumerGroupBeforeAnythingElse() throws Exception {
        start(Map.of("group.consumer.migration.policy", "disabled"));
        createTopic();
        assertThat(heartbeat("m1", 0).errorCode()).isEqualTo(Errors.NONE.code());

        // Kafka 4.3.1's throwIfClassicMemberCannotJoinConsumerGroup comes first: no MEMBER_ID_REQUIRED round.
        JoinGroupResponseView refused = classicJoin("");
        assertThat(refused.errorCode()).isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
        assertThat(refused.memberId()).isEmpty();
        assertThat(refused.generationId()).isEqualTo(-1);
        assertThat(describe().members()).extracting(m -> m.memberId()).containsExactly("m1");
    }

    @Test
    void underTheUpgradePolicyAClassicMemberStillJoinsAConsumerGroup() throws Exception {
        start(Map.of("group.consumer.migration.policy", "upgrade"));
        createTopic();
        assertThat(heartbeat("m1", 0).errorCode()).isEqualTo(Errors.NONE.code());

        JoinGroupResponseView asked = classicJoin("");
        assertThat(asked.errorCode()).as("only 'disabled' refuses, as Kafka")
                .isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
    }

    // Kafka 4.3.1's classicGroupJoinToConsumerGroup checks a classic join in this order: the migration policy, the
    // group's size, the protocols (throwIfClassicProtocolIsNotSupported), the member id round (MEMBER_ID_REQUIRED),
    // the static instance, and only then the embedded subscription.

    private JoinGroupResponseView classicJoin(String memberId, String instanceId, String protocolType,
                                              byte[] metadata) throws IOException {
        JoinGroupRequestView join = new JoinGroupRequestView().groupId("g").sessionTimeoutMs(CLASSIC_SESSION_MS)
                .rebalanceTimeoutMs(30_000).memberId(memberId).groupInstanceId(instanceId).protocolType(protocolType);
        join.addProtocol().name("range").metadata(metadata);
        return new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9, join.struct()));
    }

    /** A consumer group of one consumer-protocol member, m1 (static if {@code instanceId} is set). */
    private void consumerGroupOfOne(Map<String, String> config, String instanceId) throws Exception {
        start(config);
        createTopic();
        ConsumerGroupHeartbeatRequestView request = new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(0).instanceId(instanceId).rebalanceTimeoutMs(30_000)
                .subscribedTopicNames(List.of("t")).topicPartitions(List.of());
        assertThat(new ConsumerGroupHeartbeatResponseView(client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1,
                request.struct())).errorCode()).isEqualTo(Errors.NONE.code());
    }

    private static void assertRefused(JoinGroupResponseView answer, Errors error) {
        assertThat(answer.errorCode()).isEqualTo(error.code());
        assertThat(answer.memberId()).as("a thrown refusal names no member").isEmpty();
    }

    @Test
    void aFullConsumerGroupRefusesANewClassicMemberBeforeTheMemberIdRound() throws Exception {
        consumerGroupOfOne(Map.of("group.consumer.max.size", "1"), null);
        assertRefused(classicJoin("", null, "consumer", subscription(List.of())), Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(describe().members()).extracting(m -> m.memberId()).containsExactly("m1");
    }

    @Test
    void aFullConsumerGroupRefusesAClassicJoinBeforeCheckingItsProtocols() throws Exception {
        consumerGroupOfOne(Map.of("group.consumer.max.size", "1"), null);
        assertRefused(classicJoin("given-id", null, "connect", subscription(List.of())),
                Errors.GROUP_MAX_SIZE_REACHED);
    }

    @Test
    void aFullConsumerGroupRefusesAStaticClassicMemberTakingAnInstanceOver() throws Exception {
        // Kafka gives the join a fresh member id before the size check: the instance's holder does not count
        consumerGroupOfOne(Map.of("group.consumer.max.size", "1"), "host-1");
        assertRefused(classicJoin("", "host-1", "consumer", subscription(List.of())), Errors.GROUP_MAX_SIZE_REACHED);
        assertThat(describe().members()).extracting(m -> m.memberId()).containsExactly("m1");
    }

    @Test
    void aClassicJoinOfAnotherProtocolTypeIsRefusedBeforeTheMemberIdRound() throws Exception {
        consumerGroupOfOne(Map.of(), null);
        assertRefused(classicJoin("", null, "connect", subscription(List.of())), Errors.INCONSISTENT_GROUP_PROTOCOL);
    }

    @Test
    void aMalformedSubscriptionIsFoundOnlyAfterTheMemberIdRound() throws Exception {
        consumerGroupOfOne(Map.of(), null);
        byte[] malformed = {0, 1, 0};
        JoinGroupResponseView asked = classicJoin("", null, "consumer", malformed);
        assertThat(asked.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        // Kafka's deserializeSubscription throws an IllegalStateException: UNKNOWN_SERVER_ERROR
        assertRefused(classicJoin(asked.memberId(), null, "consumer", malformed), Errors.UNKNOWN_SERVER_ERROR);
        assertThat(describe().members()).extracting(m -> m.memberId()).containsExactly("m1");
    }

    private JoinGroupResponseView classicJoinOffering(String memberId, List<String> protocolNames)
            throws IOException {
        JoinGroupRequestView join = new JoinGroupRequestView().groupId("g").sessionTimeoutMs(CLASSIC_SESSION_MS)
                .rebalanceTimeoutMs(30_000).memberId(memberId).protocolType("consumer");
        protocolNames.forEach(name -> join.addProtocol().name(name).metadata(subscription(List.of())));
        return new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9, join.struct()));
    }

    /** Kafka's supportsClassicProtocols: one offered name every classic member supports, before MEMBER_ID_REQUIRED. */
    @Test
    void aClassicJoinMustOfferAProtocolEveryClassicMemberSupports() throws Exception {
        String classic = upgradedAndReconciled(); // its classic member offered "range" only

        assertRefused(classicJoinOffering("", List.of("roundrobin")), Errors.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(classicJoinOffering("", List.of("roundrobin", "range")).errorCode())
                .isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertRefused(classicJoinOffering(classic, List.of("roundrobin")), Errors.INCONSISTENT_GROUP_PROTOCOL);
        assertThat(describe().members()).hasSize(2);
    }

    @Test
    void aClassicJoinMayOfferAnyProtocolWhileNoMemberIsClassic() throws Exception {
        consumerGroupOfOne(Map.of(), null);
        assertThat(classicJoinOffering("", List.of("roundrobin")).errorCode())
                .isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        assertRefused(classicJoinOffering("", List.of()), Errors.INCONSISTENT_GROUP_PROTOCOL);
    }

    /**
     * Kafka tombstones the empty classic group's metadata in the batch of the consumer group's first records, or
     * rolls the takeover back when they are refused. Here every write of the consumer group is refused (a group id
     * so long that each of its batches, several keys naming it, is over message.max.bytes, where the classic
     * group's single record is not): deleting the group that never wrote must tombstone the classic group's
     * metadata with its commit's, else the classic group comes back on reload.
     */
    @Test
    void aConsumerGroupDeletedBeforeItsFirstWriteTombstonesTheClassicGroupItTookOver() throws Exception {
        groupId = "g".repeat(750);
        start(Map.of("message.max.bytes", "2000"));
        createTopic();
        String classic = stableClassicGroup();
        OffsetCommitRequestView commit = new OffsetCommitRequestView().groupId(groupId).memberId(classic)
                .generationIdOrMemberEpoch(1);
        commit.addTopic().name("t").addPartition().partitionIndex(0).committedOffset(5);
        assertThat(new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, commit.struct())).topics()
                .get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        Struct leave = ApiKey.LEAVE_GROUP.request().newMessage().set("GroupId", groupId);
        leave.addElement("Members").set("MemberId", classic);
        assertThat(client.call(ApiKey.LEAVE_GROUP, 4, leave).getInt16("ErrorCode")).isEqualTo(Errors.NONE.code());
        assertThat(client.describedState(groupId)).isEqualTo("Empty");

        assertThat(heartbeat("m1", 0).errorCode()).as("the join's records refused")
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(heartbeat("m1", -1).errorCode()).as("the leave's records refused")
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        Struct delete = ApiKey.DELETE_GROUPS.request().newMessage().set("GroupsNames", List.of(groupId));
        assertThat(client.call(ApiKey.DELETE_GROUPS, 2, delete).getStructs("Results").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
        client.close();
        broker.close();

        start(Map.of("message.max.bytes", "2000"));
        assertThat(client.describedState(groupId)).as("no group of that id after the reload").isEqualTo("Dead");
    }

    /**
     * A consumer group whose first write is refused was never made, as Kafka rolls the refused write back: the
     * member's leave finds no group, and DeleteGroups has none to delete.
     */
    @Test
    void aConsumerGroupWhoseFirstWriteIsRefusedIsNoGroup() throws Exception {
        groupId = "g".repeat(1000); // even the group's two epoch records are over message.max.bytes
        start(Map.of("message.max.bytes", "2000"));
        createTopic();
        assertThat(heartbeat("m1", 0).errorCode()).as("the join's records refused")
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(heartbeat("m1", -1).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        Struct delete = ApiKey.DELETE_GROUPS.request().newMessage().set("GroupsNames", List.of(groupId));
        assertThat(client.call(ApiKey.DELETE_GROUPS, 2, delete).getStructs("Results").get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(client.describedState(groupId)).isEqualTo("Dead");
    }

    /** As Kafka's validateOnlineDowngradeWithFencedMembers: not when more classic members would stay than that. */
    @Test
    void noDowngradeToAClassicGroupOverGroupMaxSize() throws Exception {
        upgradedAndReconciled(Map.of("group.max.size", "1"));
        String second = classicJoin(classicJoin("").memberId()).memberId(); // a second classic member
        assertThat(describe().members()).hasSize(3);

        assertThat(heartbeat("m1", -1).errorCode()).isEqualTo(Errors.NONE.code());

        assertThat(describe().errorCode()).as("still a consumer group").isEqualTo(Errors.NONE.code());
        assertThat(describe().members()).extracting(m -> m.memberId()).hasSize(2).contains(second);
    }
}
