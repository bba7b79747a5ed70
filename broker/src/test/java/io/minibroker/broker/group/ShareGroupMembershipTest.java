package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsResponseView;
import io.minibroker.protocol.message.view.DescribeGroupsRequestView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.ListGroupsRequestView;
import io.minibroker.protocol.message.view.ListGroupsResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Share-group membership (KIP-932) on the wire, time driven by a ManualClock: joining, the group and member epochs,
 * the simple assignment (partitions shared once members outnumber them), leaving, session expiry, fencing, Kafka's
 * errors, the admin APIs, the group-type collisions and the group surviving a restart.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareGroupMembershipTest {

    private static final int SESSION_MS = 45_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.share.max.size", "3"), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("t").numPartitions(2).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private ShareGroupHeartbeatResponseView heartbeat(ShareGroupHeartbeatRequestView request) throws IOException {
        return new ShareGroupHeartbeatResponseView(client.call(ApiKey.SHARE_GROUP_HEARTBEAT, 1, request.struct()));
    }

    private static ShareGroupHeartbeatRequestView join(String memberId) {
        return new ShareGroupHeartbeatRequestView().groupId("g").memberId(memberId).memberEpoch(0)
                .subscribedTopicNames(List.of("t"));
    }

    private static ShareGroupHeartbeatRequestView beat(String memberId, int epoch) {
        return new ShareGroupHeartbeatRequestView().groupId("g").memberId(memberId).memberEpoch(epoch);
    }

    private ShareGroupDescribeResponseView.DescribedGroup describe(String groupId) throws IOException {
        ShareGroupDescribeRequestView request = new ShareGroupDescribeRequestView().groupIds(List.of(groupId));
        return new ShareGroupDescribeResponseView(client.call(ApiKey.SHARE_GROUP_DESCRIBE, 1, request.struct()))
                .groups().get(0);
    }

    /**
     * Heartbeats as {@code memberId} at {@code epoch} until the answer assigns it partitions: as Kafka's, the
     * coordinator assigns a partition only once the share coordinator has initialized its state, which a heartbeat
     * asks for after it is answered; the next heartbeat after that moves the group epoch on and assigns it.
     */
    private ShareGroupHeartbeatResponseView untilAssigned(String memberId, int epoch) throws IOException {
        while (true) {
            ShareGroupHeartbeatResponseView response = heartbeat(beat(memberId, epoch));
            assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
            if (response.assignment() != null && !partitions(response).isEmpty()) {
                return response;
            }
        }
    }

    private static Set<Integer> partitions(ShareGroupHeartbeatResponseView response) {
        Set<Integer> partitions = new TreeSet<>();
        response.assignment().topicPartitions().forEach(tp -> partitions.addAll(tp.partitions()));
        return partitions;
    }

    @Test
    void membersJoinShareThePartitionsAndLeave() throws Exception {
        ShareGroupHeartbeatResponseView first = heartbeat(join("m1"));
        assertThat(first.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(first.memberId()).isEqualTo("m1");
        assertThat(first.memberEpoch()).isEqualTo(2);
        assertThat(first.heartbeatIntervalMs()).isEqualTo(5000);
        assertThat(partitions(first)).as("nothing before the partitions' share state is initialized").isEmpty();
        ShareGroupHeartbeatResponseView assigned = untilAssigned("m1", 2);
        assertThat(assigned.memberEpoch()).as("the initialized partitions assigned at a new epoch").isEqualTo(3);
        assertThat(partitions(assigned)).containsExactly(0, 1);

        ShareGroupHeartbeatResponseView second = heartbeat(join("m2"));
        assertThat(second.memberEpoch()).isEqualTo(4);
        ShareGroupHeartbeatResponseView moved = heartbeat(beat("m1", 3));
        assertThat(moved.memberEpoch()).isEqualTo(4);
        assertThat(partitions(moved)).hasSize(1).doesNotContainAnyElementsOf(partitions(second));
        assertThat(heartbeat(beat("m1", 4)).assignment()).as("unchanged: left out").isNull();

        // A third member for two partitions: every member gets one, a partition is shared.
        ShareGroupHeartbeatResponseView third = heartbeat(join("m3"));
        assertThat(partitions(third)).hasSize(1);
        ShareGroupDescribeResponseView.DescribedGroup group = describe("g");
        assertThat(group.groupState()).isEqualTo("Stable");
        assertThat(group.groupEpoch()).isEqualTo(5);
        assertThat(group.assignmentEpoch()).isEqualTo(5);
        assertThat(group.assignorName()).isEqualTo("simple");
        assertThat(group.members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1", "m2", "m3");
        assertThat(group.members().get(2).assignment().topicPartitions().get(0).topicName()).isEqualTo("t");

        assertThat(heartbeat(join("m4")).errorCode()).isEqualTo(Errors.GROUP_MAX_SIZE_REACHED.code());

        ShareGroupHeartbeatResponseView left = heartbeat(beat("m3", -1));
        assertThat(left.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(left.memberEpoch()).isEqualTo(-1);
        assertThat(describe("g").members()).hasSize(2);
        assertThat(describe("g").groupEpoch()).isEqualTo(6);
        assertThat(heartbeat(beat("m3", 5)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    @Test
    void aSilentMemberIsRemovedWhenItsSessionRunsOut() throws Exception {
        heartbeat(join("m1"));
        untilAssigned("m1", 2);
        heartbeat(join("m2"));
        clock.advance(SESSION_MS - 1000);
        assertThat(heartbeat(beat("m1", 3)).errorCode()).isEqualTo(Errors.NONE.code());
        clock.advance(1000);
        waitUntilMembers(1);
        ShareGroupHeartbeatResponseView alone = heartbeat(beat("m1", 4));
        // Epoch 5 at m2's removal; as Kafka's, the next heartbeat finds m2's initialized partition in no target
        // assignment (initializedAssignmentPending) and bumps the epoch once more.
        assertThat(alone.memberEpoch()).isEqualTo(6);
        assertThat(partitions(alone)).containsExactly(0, 1);
        assertThat(heartbeat(beat("m2", 4)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());

        clock.advance(SESSION_MS);
        waitUntilMembers(0);
        assertThat(describe("g").groupState()).isEqualTo("Empty");
    }

    @Test
    void aGroupsOwnSessionTimeoutAndHeartbeatInterval() throws Exception {
        ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "g");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT")))) {
            assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(group, List.of(new AlterConfigOp(
                    new ConfigEntry("share.heartbeat.interval.ms", "50000"), AlterConfigOp.OpType.SET))))
                    .all().get()).hasCauseInstanceOf(InvalidConfigurationException.class)
                    .hasMessageContaining("share.heartbeat.interval.ms must be less than or equal to"
                            + " group.share.max.heartbeat.interval.ms");
            // Within the broker's group.share.min/max.* bounds (45-60 s, 5-15 s by default), as Kafka checks.
            admin.incrementalAlterConfigs(Map.of(group, List.of(
                    new AlterConfigOp(new ConfigEntry("share.session.timeout.ms", "50000"), AlterConfigOp.OpType.SET),
                    new AlterConfigOp(new ConfigEntry("share.heartbeat.interval.ms", "6000"),
                            AlterConfigOp.OpType.SET)))).all().get();
        }
        assertThat(heartbeat(join("m1")).heartbeatIntervalMs()).isEqualTo(6000);
        clock.advance(49_999);
        assertThat(describe("g").members()).hasSize(1);
        clock.advance(1);
        waitUntilMembers(0);
    }

    /** The expiry is handed to the coordinator's thread: it is observed, not timed. */
    private void waitUntilMembers(int count) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (describe("g").members().size() != count) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @Test
    void kafkasErrors() throws Exception {
        // Kafka's KafkaApis refuses a member id it does not take (empty, longer than a UUID's 36 characters) before
        // its group coordinator sees the heartbeat, with no message
        assertThat(heartbeat(join(""))).extracting(r -> r.errorCode(), r -> r.errorMessage())
                .containsExactly(Errors.INVALID_REQUEST.code(), null);
        assertThat(heartbeat(join("m".repeat(37)))).extracting(r -> r.errorCode(), r -> r.errorMessage())
                .containsExactly(Errors.INVALID_REQUEST.code(), null);
        assertThat(heartbeat(join("m1").subscribedTopicNames(List.of())).errorMessage())
                .isEqualTo("SubscribedTopicNames must be set in first request.");
        assertThat(heartbeat(beat("m1", -2)).errorMessage()).isEqualTo("MemberEpoch is invalid.");
        assertThat(heartbeat(beat("m1", 1)).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());

        heartbeat(join("m1"));
        heartbeat(join("m2"));
        heartbeat(beat("m1", 2)); // now at epoch 3, its previous 2
        assertThat(heartbeat(beat("m1", 2)).errorCode()).as("the previous epoch: the answer was lost")
                .isEqualTo(Errors.NONE.code());
        assertThat(heartbeat(beat("m1", 6)).errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH.code());
        assertThat(heartbeat(beat("m2", 0).subscribedTopicNames(List.of("t"))).errorCode())
                .as("rejoining under its id").isEqualTo(Errors.NONE.code());
        assertThat(heartbeat(beat("nobody", 3)).errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(describe("none").errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
    }

    @Test
    void aGroupIdNamesOneKindOfGroup() throws Exception {
        heartbeat(join("m1"));
        ConsumerGroupHeartbeatResponseView consumer = new ConsumerGroupHeartbeatResponseView(client.call(
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("g")
                        .memberId("c1").memberEpoch(0).rebalanceTimeoutMs(30_000)
                        .subscribedTopicNames(List.of("t")).topicPartitions(List.of()).struct()));
        assertThat(consumer.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(consumer.errorMessage()).isEqualTo("Group g is not a consumer group.");
        JoinGroupRequestView classic = new JoinGroupRequestView().groupId("g").memberId("").sessionTimeoutMs(10_000)
                .rebalanceTimeoutMs(10_000).protocolType("consumer");
        classic.addProtocol().name("range").metadata(new byte[0]);
        assertThat(new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9, classic.struct())).errorCode())
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());

        client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("c")
                .memberId("c1").memberEpoch(0).rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of("t"))
                .topicPartitions(List.of()).struct());
        ShareGroupHeartbeatResponseView intoConsumerGroup = heartbeat(join("m1").groupId("c"));
        assertThat(intoConsumerGroup.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(intoConsumerGroup.errorMessage()).isEqualTo("Group c is not a share group.");
        assertThat(describe("c").errorMessage()).isEqualTo("Group c is not a share group.");

        DescribeGroupsResponseView.DescribedGroup asClassic = new DescribeGroupsResponseView(client.call(
                ApiKey.DESCRIBE_GROUPS, 6, new DescribeGroupsRequestView().groups(List.of("g")).struct()))
                .groups().get(0);
        assertThat(asClassic.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(asClassic.errorMessage()).isEqualTo("Group g is not a classic group.");
    }

    @Test
    void listedByTypeAndDeletedOnceEmpty() throws Exception {
        heartbeat(join("m1"));
        ListGroupsResponseView shares = new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5,
                new ListGroupsRequestView().typesFilter(List.of("share")).statesFilter(List.of()).struct()));
        assertThat(shares.groups()).singleElement().satisfies(group -> {
            assertThat(group.groupId()).isEqualTo("g");
            assertThat(group.groupType()).isEqualTo("share");
            assertThat(group.protocolType()).isEqualTo("share");
            assertThat(group.groupState()).isEqualTo("Stable");
        });
        ListGroupsResponseView consumers = new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5,
                new ListGroupsRequestView().typesFilter(List.of("consumer")).statesFilter(List.of()).struct()));
        assertThat(consumers.groups()).isEmpty();

        assertThat(delete("g")).isEqualTo(Errors.NON_EMPTY_GROUP.code());
        heartbeat(beat("m1", -1));
        assertThat(delete("g")).isEqualTo(Errors.NONE.code());
        assertThat(describe("g").errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(delete("g")).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());

        restart();
        assertThat(describe("g").errorCode()).as("the tombstones replayed").isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
    }

    private short delete(String groupId) throws IOException {
        return new DeleteGroupsResponseView(client.call(ApiKey.DELETE_GROUPS, 2,
                new DeleteGroupsRequestView().groupsNames(List.of(groupId)).struct())).results().get(0).errorCode();
    }

    @Test
    void theGroupSurvivesARestart() throws Exception {
        heartbeat(join("m1").rackId("r1"));
        untilAssigned("m1", 2);
        heartbeat(join("m2"));
        heartbeat(join("m3"));
        heartbeat(beat("m3", -1));
        ShareGroupHeartbeatResponseView before = heartbeat(beat("m1", 3));
        ShareGroupDescribeResponseView.DescribedGroup described = describe("g");

        restart();
        ShareGroupDescribeResponseView.DescribedGroup after = describe("g");
        assertThat(after.groupEpoch()).isEqualTo(described.groupEpoch()).isEqualTo(6);
        assertThat(after.assignmentEpoch()).isEqualTo(described.assignmentEpoch());
        assertThat(after.members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1", "m2");
        assertThat(after.members().get(0).rackId()).isEqualTo("r1");
        assertThat(after.members().get(0).memberEpoch()).isEqualTo(before.memberEpoch());
        assertThat(after.members().get(0).subscribedTopicNames()).containsExactly("t");
        ShareGroupHeartbeatResponseView carriesOn = heartbeat(beat("m1", before.memberEpoch()));
        assertThat(carriesOn.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(carriesOn.memberEpoch()).isEqualTo(before.memberEpoch());

        clock.advance(1000);
        heartbeat(beat("m1", before.memberEpoch()));
        clock.advance(SESSION_MS - 1000); // m2's session, started afresh on the load, runs out; m1's does not
        waitUntilMembers(1);
        assertThat(describe("g").members().get(0).memberId()).isEqualTo("m1");
    }

    private void restart() throws Exception {
        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of("group.share.max.size", "3"), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }
}
