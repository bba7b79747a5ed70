package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
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
 * A share group's write that {@code __consumer_offsets} refuses at its append (a batch over the topic's
 * {@code max.message.bytes}, answered UNKNOWN_SERVER_ERROR): as Kafka's coordinator runtime reverts a failed
 * append, the group is as it was before the change, on the wire and for its members' retries and sessions.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareGroupWriteRollbackTest {

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
        create.addTopic().name("t").numPartitions(2).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    @Test
    void aJoinWhoseWriteIsRefusedIsNoMemberAndItsRetryJoins() throws Exception {
        assertThat(heartbeat(join("g", "m1")).memberEpoch()).isEqualTo(2);
        client.refuseOffsetsTopicWrites();

        assertThat(heartbeat(join("g", "m2")).errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        ShareGroupDescribeResponseView.DescribedGroup group = describe("g");
        assertThat(group.groupEpoch()).isEqualTo(2);
        assertThat(group.members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");

        client.acceptOffsetsTopicWrites();
        ShareGroupHeartbeatResponseView retried = heartbeat(join("g", "m2"));
        assertThat(retried.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe("g").members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");
    }

    @Test
    void aNewGroupWhoseFirstWriteIsRefusedIsNoGroup() throws Exception {
        heartbeat(join("other", "m0")); // __consumer_offsets is there to configure
        client.refuseOffsetsTopicWrites();

        assertThat(heartbeat(join("g", "m1")).errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());

        assertThat(describe("g").errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        client.acceptOffsetsTopicWrites();
        assertThat(heartbeat(join("g", "m1")).memberEpoch()).isEqualTo(2);
    }

    @Test
    void aMemberWhoseLeaveIsRefusedStaysAndItsSessionRuns() throws Exception {
        heartbeat(join("g", "m1"));
        assertThat(heartbeat(join("g", "m2")).errorCode()).isEqualTo(Errors.NONE.code());
        int epoch = describe("g").groupEpoch();
        client.refuseOffsetsTopicWrites();

        ShareGroupHeartbeatResponseView leave = heartbeat(new ShareGroupHeartbeatRequestView().groupId("g")
                .memberId("m2").memberEpoch(ShareGroupMember.LEAVE_GROUP_MEMBER_EPOCH));
        assertThat(leave.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        ShareGroupDescribeResponseView.DescribedGroup group = describe("g");
        assertThat(group.groupEpoch()).as("not bumped by the refused leave").isEqualTo(epoch);
        assertThat(group.members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactlyInAnyOrder("m1", "m2");

        client.acceptOffsetsTopicWrites();
        // m1 heartbeats on; m2, silent since its refused leave, is removed when its session runs out.
        clock.advance(SESSION_MS - 1);
        int m1Epoch = describe("g").members().stream().filter(member -> member.memberId().equals("m1"))
                .findFirst().orElseThrow().memberEpoch();
        assertThat(heartbeat(new ShareGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(m1Epoch))
                .errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(describe("g").members()).hasSize(2);
        clock.advance(1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (describe("g").members().size() != 1) { // the expiry is handed to the coordinator's thread
            assertThat(System.nanoTime()).isLessThan(deadline);
            Thread.onSpinWait();
        }
        assertThat(describe("g").members()).extracting(ShareGroupDescribeResponseView.Member::memberId)
                .containsExactly("m1");
    }

    private ShareGroupHeartbeatResponseView heartbeat(ShareGroupHeartbeatRequestView request) throws IOException {
        return new ShareGroupHeartbeatResponseView(client.call(ApiKey.SHARE_GROUP_HEARTBEAT, 1, request.struct()));
    }

    private static ShareGroupHeartbeatRequestView join(String groupId, String memberId) {
        return new ShareGroupHeartbeatRequestView().groupId(groupId).memberId(memberId).memberEpoch(0)
                .subscribedTopicNames(List.of("t"));
    }

    private ShareGroupDescribeResponseView.DescribedGroup describe(String groupId) throws IOException {
        ShareGroupDescribeRequestView request = new ShareGroupDescribeRequestView().groupIds(List.of(groupId));
        return new ShareGroupDescribeResponseView(client.call(ApiKey.SHARE_GROUP_DESCRIBE, 1, request.struct()))
                .groups().get(0);
    }
}
