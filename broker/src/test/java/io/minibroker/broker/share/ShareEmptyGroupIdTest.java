package io.minibroker.broker.share;

import io.minibroker.broker.network.RawClient;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ShareAcknowledgeResponseView;
import io.minibroker.protocol.message.view.ShareFetchRequestView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.message.view.ShareGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ShareGroupDescribeResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatResponseView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An empty share group id, answered as Kafka 4.3.1 answers it (seen against a 4.3.1 node): ShareGroupHeartbeat
 * INVALID_REQUEST "GroupId can't be empty.", ShareGroupDescribe INVALID_GROUP_ID for that group, and ShareFetch and
 * ShareAcknowledge carry on: only a null group id is INVALID_REQUEST there. The session opens and keeps its epochs;
 * its partitions fail to load (UNKNOWN_SERVER_ERROR), as the share coordinator serves no group without a name, and
 * an acknowledgement then finds no share partition (UNKNOWN_TOPIC_OR_PARTITION); neither names a current leader.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareEmptyGroupIdTest {

    private static final short HEARTBEAT_VERSION = 1;
    private static final short DESCRIBE_VERSION = 1;

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    @Test
    void aHeartbeatIsInvalidAndADescribeAnswersInvalidGroupId() throws Exception {
        try (RawClient client = new RawClient(broker.port())) {
            client.send(RawClient.request(ApiKey.SHARE_GROUP_HEARTBEAT, HEARTBEAT_VERSION, 1,
                    new ShareGroupHeartbeatRequestView().groupId("").memberId("member-a").memberEpoch(0)
                            .subscribedTopicNames(List.of(ShareBroker.TOPIC)).struct()));
            ShareGroupHeartbeatResponseView heartbeat = new ShareGroupHeartbeatResponseView(
                    client.receive(ApiKey.SHARE_GROUP_HEARTBEAT, HEARTBEAT_VERSION).body());
            assertThat(heartbeat.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(heartbeat.errorMessage()).isEqualTo("GroupId can't be empty.");

            client.send(RawClient.request(ApiKey.SHARE_GROUP_DESCRIBE, DESCRIBE_VERSION, 2,
                    new ShareGroupDescribeRequestView().groupIds(List.of("")).struct()));
            ShareGroupDescribeResponseView describe = new ShareGroupDescribeResponseView(
                    client.receive(ApiKey.SHARE_GROUP_DESCRIBE, DESCRIBE_VERSION).body());
            assertThat(describe.groups()).hasSize(1);
            assertThat(describe.groups().get(0).groupId()).isEmpty();
            assertThat(describe.groups().get(0).errorCode()).isEqualTo(Errors.INVALID_GROUP_ID.code());
            assertThat(describe.groups().get(0).errorMessage()).isNull();
        }
    }

    @Test
    void aShareFetchAndAShareAcknowledgeCarryOnInTheirSession() throws Exception {
        try (ShareWire member = new ShareWire(broker.port(), "", "member-a", broker.topicId)) {
            ShareFetchResponseView opened = member.fetch(10);
            assertThat(opened.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(opened.responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
            ShareFetchResponseView.LeaderIdAndEpoch fetchLeader = opened.responses().get(0).partitions().get(0)
                    .currentLeader();
            assertNoLeaderNamed(fetchLeader.leaderId(), fetchLeader.leaderEpoch());

            ShareAcknowledgeResponseView acknowledged = member.acknowledge(ShareWire.ack(0, 0, AcknowledgeType.ACCEPT));
            assertThat(acknowledged.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acknowledged.responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            ShareAcknowledgeResponseView.LeaderIdAndEpoch ackLeader = acknowledged.responses().get(0).partitions()
                    .get(0).currentLeader();
            assertNoLeaderNamed(ackLeader.leaderId(), ackLeader.leaderEpoch());

            member.epoch = 0; // acknowledgements never open a session
            assertThat(member.acknowledge(ShareWire.ack(0, 0, AcknowledgeType.ACCEPT)).errorCode())
                    .isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH.code());
        }
    }

    /**
     * Kafka 4.3.1's KafkaApis names a CurrentLeader only for NOT_LEADER_OR_FOLLOWER and FENCED_LEADER_EPOCH; any
     * other partition keeps its generated LeaderIdAndEpoch's defaults, leader 0 and epoch 0 (seen on a 4.3.1 node).
     */
    private static void assertNoLeaderNamed(int leaderId, int leaderEpoch) {
        assertThat(leaderId).isZero();
        assertThat(leaderEpoch).isZero();
    }

    @Test
    void aShareFetchWithoutAGroupIdIsInvalid() throws Exception {
        try (RawClient client = new RawClient(broker.port())) {
            client.send(RawClient.request(ApiKey.SHARE_FETCH, ShareWire.VERSION, 1, new ShareFetchRequestView()
                    .groupId(null).memberId("member-a").maxWaitMs(0).maxBytes(1 << 20).maxRecords(10).struct()));
            assertThat(new ShareFetchResponseView(client.receive(ApiKey.SHARE_FETCH, ShareWire.VERSION).body())
                    .errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        }
    }
}
