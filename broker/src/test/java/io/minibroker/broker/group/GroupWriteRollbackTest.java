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
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer or share group's write that {@code __consumer_offsets} refuses at its append (here a batch over the
 * topic's {@code max.message.bytes}, RECORD_LIST_TOO_LARGE, answered UNKNOWN_SERVER_ERROR as Kafka maps it): as
 * Kafka's coordinator runtime reverts its state to the last written offset, the group is as it was before the
 * change, on the wire and for its members' retries and timeouts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupWriteRollbackTest {

    private static final int SESSION_MS = 45_000;

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of(), clock);
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("t").numPartitions(4).replicationFactor((short) 1);
        create.addTopic().name("u").numPartitions(2).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    @Test
    void aConsumerGroupJoinWhoseWriteIsRefusedIsNoMemberAndItsRetryJoins() throws Exception {
        assertThat(consumerHeartbeat(consumerJoin("g", "m1")).memberEpoch()).isEqualTo(2);
        client.refuseOffsetsTopicWrites();

        assertThat(consumerHeartbeat(consumerJoin("g", "m2")).errorCode())
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        ConsumerGroupDescribeResponseView.DescribedGroup group = describeConsumer("g");
        assertThat(group.groupEpoch()).isEqualTo(2);
        assertThat(group.assignmentEpoch()).isEqualTo(2);
        assertThat(group.members()).extracting(ConsumerGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");

        client.acceptOffsetsTopicWrites();
        ConsumerGroupHeartbeatResponseView retried = consumerHeartbeat(consumerJoin("g", "m2"));
        assertThat(retried.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(retried.memberEpoch()).as("the group epoch bumped once, by the join that counted").isEqualTo(3);
        assertThat(describeConsumer("g").members()).extracting(ConsumerGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");
    }

    @Test
    void aNewConsumerGroupWhoseFirstWriteIsRefusedIsNoGroup() throws Exception {
        consumerHeartbeat(consumerJoin("other", "m0")); // __consumer_offsets is there to configure
        client.refuseOffsetsTopicWrites();

        assertThat(consumerHeartbeat(consumerJoin("g", "m1")).errorCode())
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        assertThat(describeConsumer("g").errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        client.acceptOffsetsTopicWrites();
        assertThat(consumerHeartbeat(consumerJoin("g", "m1")).memberEpoch()).isEqualTo(2);
    }

    @Test
    void aConsumerGroupEpochBumpWhoseWriteIsRefusedIsNotBumped() throws Exception {
        assertThat(consumerHeartbeat(consumerJoin("g", "m1")).memberEpoch()).isEqualTo(2);
        client.refuseOffsetsTopicWrites();

        ConsumerGroupHeartbeatResponseView refused = consumerHeartbeat(new ConsumerGroupHeartbeatRequestView()
                .groupId("g").memberId("m1").memberEpoch(2).subscribedTopicNames(List.of("t", "u")));
        assertThat(refused.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        ConsumerGroupDescribeResponseView.DescribedGroup group = describeConsumer("g");
        assertThat(group.groupEpoch()).isEqualTo(2);
        assertThat(group.members()).singleElement().satisfies(member -> {
            assertThat(member.memberEpoch()).isEqualTo(2);
            assertThat(member.subscribedTopicNames()).containsExactly("t");
        });

        client.acceptOffsetsTopicWrites();
        ConsumerGroupHeartbeatResponseView retried = consumerHeartbeat(new ConsumerGroupHeartbeatRequestView()
                .groupId("g").memberId("m1").memberEpoch(2).subscribedTopicNames(List.of("t", "u")));
        assertThat(retried.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(retried.memberEpoch()).isEqualTo(3);
    }

    @Test
    void aConsumerGroupMemberWhoseLeaveIsRefusedStaysAndItsSessionRuns() throws Exception {
        consumerHeartbeat(consumerJoin("g", "m1"));
        assertThat(consumerHeartbeat(consumerJoin("g", "m2")).memberEpoch()).isEqualTo(3);
        client.refuseOffsetsTopicWrites();

        ConsumerGroupHeartbeatResponseView leave = consumerHeartbeat(new ConsumerGroupHeartbeatRequestView()
                .groupId("g").memberId("m2").memberEpoch(ConsumerGroupMember.LEAVE_GROUP_MEMBER_EPOCH));
        assertThat(leave.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        ConsumerGroupDescribeResponseView.DescribedGroup group = describeConsumer("g");
        assertThat(group.groupEpoch()).isEqualTo(3);
        assertThat(group.members()).extracting(ConsumerGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");

        client.acceptOffsetsTopicWrites();
        // m1 heartbeats on; m2, silent since its refused leave, is fenced when its session runs out.
        clock.advance(SESSION_MS - 1);
        assertThat(consumerHeartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(2))
                .errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describeConsumer("g").members()).hasSize(2);
        clock.advance(1);
        waitUntil(() -> describeConsumer("g").members().size() == 1);
        assertThat(describeConsumer("g").members()).extracting(ConsumerGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");
    }

    @Test
    void aShareGroupJoinWhoseWriteIsRefusedIsNoMemberAndItsRetryJoins() throws Exception {
        assertThat(shareHeartbeat(shareJoin("g", "m1")).memberEpoch()).isEqualTo(2);
        client.refuseOffsetsTopicWrites();

        assertThat(shareHeartbeat(shareJoin("g", "m2")).errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        ShareGroupDescribeResponseView.DescribedGroup group = describeShare("g");
        assertThat(group.groupEpoch()).isEqualTo(2);
        assertThat(group.members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");

        client.acceptOffsetsTopicWrites();
        ShareGroupHeartbeatResponseView retried = shareHeartbeat(shareJoin("g", "m2"));
        assertThat(retried.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describeShare("g").members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");
    }

    @Test
    void aNewShareGroupWhoseFirstWriteIsRefusedIsNoGroup() throws Exception {
        shareHeartbeat(shareJoin("other", "m0")); // __consumer_offsets is there to configure
        client.refuseOffsetsTopicWrites();

        assertThat(shareHeartbeat(shareJoin("g", "m1")).errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        assertThat(describeShare("g").errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        client.acceptOffsetsTopicWrites();
        assertThat(shareHeartbeat(shareJoin("g", "m1")).memberEpoch()).isEqualTo(2);
    }

    @Test
    void aShareGroupMemberWhoseLeaveIsRefusedStaysAndItsSessionRuns() throws Exception {
        shareHeartbeat(shareJoin("g", "m1"));
        assertThat(shareHeartbeat(shareJoin("g", "m2")).errorCode()).isEqualTo(Errors.NONE.code());
        int epoch = describeShare("g").groupEpoch();
        client.refuseOffsetsTopicWrites();

        ShareGroupHeartbeatResponseView leave = shareHeartbeat(new ShareGroupHeartbeatRequestView().groupId("g")
                .memberId("m2").memberEpoch(ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH));
        assertThat(leave.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        ShareGroupDescribeResponseView.DescribedGroup group = describeShare("g");
        assertThat(group.groupEpoch()).as("not bumped by the refused leave").isEqualTo(epoch);
        assertThat(group.members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");

        client.acceptOffsetsTopicWrites();
        // m1 heartbeats on; m2, silent since its refused leave, is removed when its session runs out.
        clock.advance(SESSION_MS - 1);
        int m1Epoch = describeShare("g").members().stream().filter(member -> member.memberId().equals("m1"))
                .findFirst().orElseThrow().memberEpoch();
        assertThat(shareHeartbeat(new ShareGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(m1Epoch))
                .errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describeShare("g").members()).hasSize(2);
        clock.advance(1);
        waitUntil(() -> describeShare("g").members().size() == 1);
        assertThat(describeShare("g").members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");
    }

    @Test
    void aConsumerGroupFencingWhoseWriteIsRefusedIsTriedAgainHalfASecondLater() throws Exception {
        consumerHeartbeat(consumerJoin("g", "m1", "t"));
        assertThat(consumerHeartbeat(consumerJoin("g", "m2", "u")).memberEpoch()).isEqualTo(3); // nothing to revoke
        clock.advance(1000);
        assertThat(consumerHeartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1")
                .memberEpoch(2)).errorCode()).isEqualTo(Errors.NONE.code());
        client.refuseOffsetsTopicWrites();

        clock.advance(SESSION_MS - 1000); // m2's session runs out; its fencing is refused
        assertThat(consumerHeartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("nobody")
                .memberEpoch(1)).errorCode()).as("answered on the coordinator's thread, after the fencing")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(describeConsumer("g").members()).hasSize(2);

        client.acceptOffsetsTopicWrites();
        clock.advance(MemberTimeouts.RETRY_BACKOFF_MS);
        waitUntil(() -> describeConsumer("g").members().size() == 1);
        assertThat(describeConsumer("g").members()).extracting(ConsumerGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");
    }

    @Test
    void aShareGroupExpiryWhoseWriteIsRefusedIsTriedAgainHalfASecondLater() throws Exception {
        shareHeartbeat(shareJoin("g", "m1"));
        shareHeartbeat(shareJoin("g", "m2"));
        clock.advance(1000);
        int m1Epoch = describeShare("g").members().stream().filter(member -> member.memberId().equals("m1"))
                .findFirst().orElseThrow().memberEpoch();
        assertThat(shareHeartbeat(new ShareGroupHeartbeatRequestView().groupId("g").memberId("m1")
                .memberEpoch(m1Epoch)).errorCode()).isEqualTo(Errors.NONE.code());
        client.refuseOffsetsTopicWrites();

        clock.advance(SESSION_MS - 1000); // m2's session runs out; its removal is refused
        assertThat(shareHeartbeat(new ShareGroupHeartbeatRequestView().groupId("g").memberId("nobody")
                .memberEpoch(1)).errorCode()).as("answered on the coordinator's thread, after the removal")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(describeShare("g").members()).hasSize(2);

        client.acceptOffsetsTopicWrites();
        clock.advance(MemberTimeouts.RETRY_BACKOFF_MS);
        waitUntil(() -> describeShare("g").members().size() == 1);
        assertThat(describeShare("g").members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");
    }

    private ConsumerGroupHeartbeatResponseView consumerHeartbeat(ConsumerGroupHeartbeatRequestView request)
            throws IOException {
        return new ConsumerGroupHeartbeatResponseView(client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1,
                request.struct()));
    }

    private static ConsumerGroupHeartbeatRequestView consumerJoin(String groupId, String memberId) {
        return consumerJoin(groupId, memberId, "t");
    }

    private static ConsumerGroupHeartbeatRequestView consumerJoin(String groupId, String memberId, String topic) {
        return new ConsumerGroupHeartbeatRequestView().groupId(groupId).memberId(memberId).memberEpoch(0)
                .rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of(topic)).topicPartitions(List.of());
    }

    private ConsumerGroupDescribeResponseView.DescribedGroup describeConsumer(String groupId) throws IOException {
        ConsumerGroupDescribeRequestView request = new ConsumerGroupDescribeRequestView().groupIds(List.of(groupId));
        return new ConsumerGroupDescribeResponseView(client.call(ApiKey.CONSUMER_GROUP_DESCRIBE, 1,
                request.struct())).groups().get(0);
    }

    private ShareGroupHeartbeatResponseView shareHeartbeat(ShareGroupHeartbeatRequestView request)
            throws IOException {
        return new ShareGroupHeartbeatResponseView(client.call(ApiKey.SHARE_GROUP_HEARTBEAT, 1, request.struct()));
    }

    private static ShareGroupHeartbeatRequestView shareJoin(String groupId, String memberId) {
        return new ShareGroupHeartbeatRequestView().groupId(groupId).memberId(memberId).memberEpoch(0)
                .subscribedTopicNames(List.of("t"));
    }

    private ShareGroupDescribeResponseView.DescribedGroup describeShare(String groupId) throws IOException {
        ShareGroupDescribeRequestView request = new ShareGroupDescribeRequestView().groupIds(List.of(groupId));
        return new ShareGroupDescribeResponseView(client.call(ApiKey.SHARE_GROUP_DESCRIBE, 1, request.struct()))
                .groups().get(0);
    }

    /** A member's removal is handed to the coordinator's thread: it is observed, not timed. */
    private static void waitUntil(IoCondition condition) throws IOException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.holds()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    @FunctionalInterface
    private interface IoCondition {
        boolean holds() throws IOException;
    }
}
