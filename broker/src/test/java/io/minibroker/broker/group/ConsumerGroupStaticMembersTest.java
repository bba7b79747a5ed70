package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupHeartbeatResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.ConsumerGroupCurrentMemberAssignmentValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.group.GroupProtocolErrorsTest.joinRequest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * ConsumerGroupHeartbeat (KIP-848) from static members and to groups that are not consumer groups, spoken by hand:
 * the member of an instance id is the one that holds it, as in Kafka's coordinator.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupStaticMembersTest {

    @TempDir
    Path logDir;
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"), new ManualClock());
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
    }

    @AfterEach
    void stop() throws Exception {
        client.close();
        broker.close();
    }

    private ConsumerGroupHeartbeatResponseView heartbeat(String groupId, String memberId, int epoch,
                                                         String instanceId) throws IOException {
        ConsumerGroupHeartbeatRequestView request = new ConsumerGroupHeartbeatRequestView().groupId(groupId)
                .memberId(memberId).memberEpoch(epoch).instanceId(instanceId);
        if (epoch == 0) {
            request.rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of("t")).topicPartitions(List.of());
        }
        return new ConsumerGroupHeartbeatResponseView(client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1,
                request.struct()));
    }

    @Test
    void aReplacedStaticMembersHeartbeatIsFencedAndAnUnknownInstanceIsAnUnknownMember() throws IOException {
        int epoch = heartbeat("g", "a", 0, "instance").memberEpoch();
        assertThat(heartbeat("g", "a", -2, "instance").errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(heartbeat("g", "b", 0, "instance").errorCode()).as("b takes the released instance over")
                .isEqualTo(Errors.NONE.code());

        ConsumerGroupHeartbeatResponseView stale = heartbeat("g", "a", epoch, "instance");
        assertThat(stale.errorCode()).isEqualTo(Errors.FENCED_INSTANCE_ID.code());
        assertThat(stale.errorMessage()).isEqualTo("Static member a with instance id instance was fenced by member b.");
        ConsumerGroupHeartbeatResponseView unknown = heartbeat("g", "b", epoch, "other-instance");
        assertThat(unknown.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(unknown.errorMessage()).isEqualTo("Instance id other-instance is unknown.");
    }

    private short commit(String memberId, int epoch) throws IOException {
        OffsetCommitRequestView commit = new OffsetCommitRequestView().groupId("g").memberId(memberId)
                .generationIdOrMemberEpoch(epoch);
        commit.addTopic().name("t").addPartition().partitionIndex(0).committedOffset(5);
        return new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, commit.struct())).topics().get(0)
                .partitions().get(0).errorCode();
    }

    /**
     * Kafka 4.3.1's consumerGroupStaticMemberGroupLeave sets the assignment epochs of what a static member keeps to 0:
     * its instance's next member may commit at an epoch older than the one a partition came at.
     */
    @Test
    void aStaticMembersPartitionsCountAsHeldSinceEpochZeroAfterItsTemporaryLeave() throws IOException {
        int before = heartbeat("g", "a", 0, "instance").memberEpoch(); // no topic t yet: nothing assigned
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("t").numPartitions(2).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
        ConsumerGroupHeartbeatResponseView assigned = heartbeat("g", "a", before, "instance");
        assertThat(assigned.memberEpoch()).as("t's partitions came at a newer epoch").isGreaterThan(before);
        assertThat(commit("a", before)).as("t-0 was assigned after that epoch")
                .isEqualTo(Errors.STALE_MEMBER_EPOCH.code());

        assertThat(heartbeat("g", "a", -2, "instance").errorCode()).isEqualTo(Errors.NONE.code());
        ConsumerGroupHeartbeatResponseView rejoined = heartbeat("g", "b", 0, "instance");
        assertThat(rejoined.memberEpoch()).isEqualTo(assigned.memberEpoch());
        assertThat(commit("b", before)).as("held since epoch 0 now").isEqualTo(Errors.NONE.code());
    }

    /**
     * Kafka 4.3.1's getOrMaybeSubscribeStaticConsumerGroupMember gives the new member id the partitions of the member
     * it replaces at epoch 0 (previous epoch 0), and the same heartbeat reconciles it to the target epoch (a joining
     * member owns nothing, so nothing holds it at 0): the answer carries the target epoch, and the member's stored
     * assignment its previous epoch 0, not the epoch the replaced member held.
     */
    @Test
    void aReplacingStaticMemberIsReconciledFromEpochZero() throws IOException {
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name("t").numPartitions(2).replicationFactor((short) 1);
        client.call(ApiKey.CREATE_TOPICS, 7, create.struct());
        int epoch = heartbeat("g", "a", 0, "instance").memberEpoch();
        assertThat(heartbeat("g", "a", -2, "instance").errorCode()).isEqualTo(Errors.NONE.code());

        ConsumerGroupHeartbeatResponseView replacing = heartbeat("g", "b", 0, "instance");
        assertThat(replacing.memberEpoch()).as("the target epoch").isEqualTo(epoch);
        assertThat(replacing.assignment().topicPartitions()).singleElement()
                .satisfies(taken -> assertThat(taken.partitions()).containsExactlyInAnyOrder(0, 1));

        client.close();
        broker.close();
        ByteBuffer key = ConsumerGroupRecords.key(ConsumerGroupRecords.CURRENT_MEMBER_ASSIGNMENT, "g", "b");
        byte[] stored = OffsetsTopicSegments.batches(logDir).stream().filter(batch -> batch.containsKey(key))
                .reduce((first, second) -> second).orElseThrow().get(key);
        ByteBuffer value = ByteBuffer.wrap(stored);
        short version = value.getShort();
        ConsumerGroupCurrentMemberAssignmentValue assignment = new ConsumerGroupCurrentMemberAssignmentValue(
                new ByteBufferAccessor(value), version);
        assertThat(assignment.memberEpoch()).isEqualTo(epoch);
        assertThat(assignment.previousMemberEpoch()).as("a held epoch " + epoch).isZero();
    }

    @Test
    void aStaticMemberRejoiningUnderItsOwnIdIsTheSameMemberAndAnotherIdIsUnreleased() throws IOException {
        int epoch = heartbeat("g", "a", 0, "instance").memberEpoch();

        ConsumerGroupHeartbeatResponseView again = heartbeat("g", "a", 0, "instance");
        assertThat(again.errorCode()).as("a lost answer: the member joins again").isEqualTo(Errors.NONE.code());
        assertThat(again.memberId()).isEqualTo("a");
        assertThat(again.memberEpoch()).isEqualTo(epoch);

        assertThat(heartbeat("g", "a", epoch + 5, "instance").errorCode())
                .isEqualTo(Errors.FENCED_MEMBER_EPOCH.code());
        ConsumerGroupHeartbeatResponseView afterFenced = heartbeat("g", "a", 0, "instance");
        assertThat(afterFenced.errorCode()).as("rejoin after FENCED_MEMBER_EPOCH").isEqualTo(Errors.NONE.code());
        assertThat(afterFenced.memberId()).isEqualTo("a");

        ConsumerGroupHeartbeatResponseView other = heartbeat("g", "b", 0, "instance");
        assertThat(other.errorCode()).isEqualTo(Errors.UNRELEASED_INSTANCE_ID.code());
        assertThat(other.errorMessage()).isEqualTo("Static member b with instance id instance cannot join the group"
                + " because the instance id is owned by a member.");
    }

    @Test
    void kafkasMessagesForAJoinWithoutTopicsAndAnEpochAheadOfTheGroups() throws IOException {
        ConsumerGroupHeartbeatResponseView noTopics = new ConsumerGroupHeartbeatResponseView(client.call(
                ApiKey.CONSUMER_GROUP_HEARTBEAT, 1, new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("a")
                        .memberEpoch(0).rebalanceTimeoutMs(30_000).topicPartitions(List.of()).struct()));
        assertThat(noTopics.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(noTopics.errorMessage())
                .isEqualTo("Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.");

        int epoch = heartbeat("g", "a", 0, null).memberEpoch();
        ConsumerGroupHeartbeatResponseView ahead = heartbeat("g", "a", epoch + 5, null);
        assertThat(ahead.errorCode()).isEqualTo(Errors.FENCED_MEMBER_EPOCH.code());
        assertThat(ahead.errorMessage()).startsWith("The consumer group member has a greater member epoch (");
    }

    @Test
    void aHeartbeatOrLeaveToAGroupThatIsNotAConsumerGroupIsGroupIdNotFound() throws IOException {
        ConsumerGroupHeartbeatResponseView missing = heartbeat("nowhere", "a", 5, null);
        assertThat(missing.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(missing.errorMessage()).isEqualTo("Consumer group nowhere not found.");
        assertThat(heartbeat("nowhere", "a", -1, null).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());

        Struct classicJoin = joinRequest("classic", "", 10_000, new byte[0]).set("GroupInstanceId", "i");
        assertThat(client.call(ApiKey.JOIN_GROUP, 9, classicJoin).getInt16("ErrorCode"))
                .isEqualTo(Errors.NONE.code());
        ConsumerGroupHeartbeatResponseView classic = heartbeat("classic", "a", 5, null);
        assertThat(classic.errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(classic.errorMessage()).isEqualTo("Group classic is not a consumer group");
    }
}
