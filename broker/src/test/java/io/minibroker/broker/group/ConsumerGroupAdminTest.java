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
import io.minibroker.protocol.message.view.DeleteGroupsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsResponseView;
import io.minibroker.protocol.message.view.DescribeGroupsRequestView;
import io.minibroker.protocol.message.view.DescribeGroupsResponseView;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.ListGroupsRequestView;
import io.minibroker.protocol.message.view.ListGroupsResponseView;
import io.minibroker.protocol.message.view.OffsetCommitRequestView;
import io.minibroker.protocol.message.view.OffsetCommitResponseView;
import io.minibroker.protocol.message.view.OffsetFetchRequestView;
import io.minibroker.protocol.message.view.OffsetFetchResponseView;
import io.minibroker.protocol.message.view.ShareGroupHeartbeatRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
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
 * The group and offset APIs around a KIP-848 consumer group, on the wire: commits and fetches checked against
 * member epochs, ListGroups' type filter, DescribeGroups' answer, DeleteGroups, and the classic protocol kept out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConsumerGroupAdminTest {

    @TempDir
    Path logDir;
    private Broker broker;
    private GroupWireClient client;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
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

    private ConsumerGroupHeartbeatResponseView heartbeat(ConsumerGroupHeartbeatRequestView request)
            throws IOException {
        return new ConsumerGroupHeartbeatResponseView(client.call(ApiKey.CONSUMER_GROUP_HEARTBEAT, 1,
                request.struct()));
    }

    private void join() throws IOException {
        ConsumerGroupHeartbeatResponseView joined = heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g")
                .memberId("m1").memberEpoch(0).rebalanceTimeoutMs(30_000).subscribedTopicNames(List.of("t"))
                .topicPartitions(List.of()));
        assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(joined.memberEpoch()).isEqualTo(2);
    }

    private short commit(String memberId, int epoch) throws IOException {
        OffsetCommitRequestView request = new OffsetCommitRequestView().groupId("g").memberId(memberId)
                .generationIdOrMemberEpoch(epoch);
        request.addTopic().name("t").addPartition().partitionIndex(0).committedOffset(5);
        return new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 9, request.struct()))
                .topics().get(0).partitions().get(0).errorCode();
    }

    private short fetch(String memberId, int epoch) throws IOException {
        OffsetFetchRequestView request = new OffsetFetchRequestView();
        request.addGroup().groupId("g").memberId(memberId).memberEpoch(epoch).topics(null);
        return new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 9, request.struct())).groups().get(0)
                .errorCode();
    }

    @Test
    void commitsAndFetchesGoByMemberEpoch() throws Exception {
        join();
        assertThat(commit("m1", 2)).isEqualTo(Errors.NONE.code());
        assertThat(commit("m1", 3)).isEqualTo(Errors.STALE_MEMBER_EPOCH.code());
        assertThat(commit("stranger", 2)).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(commit("", -1)).as("a simple commit while the group has members")
                .isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(fetch("m1", 2)).isEqualTo(Errors.NONE.code());
        assertThat(fetch("m1", 1)).isEqualTo(Errors.STALE_MEMBER_EPOCH.code());
        assertThat(fetch("stranger", 2)).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
        assertThat(fetch(null, -1)).as("an admin client's fetch").isEqualTo(Errors.NONE.code());
    }

    @Test
    void listedAsAConsumerGroupAndNotDescribedAsAClassicOne() throws Exception {
        join();
        ListGroupsResponseView consumers = new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5,
                new ListGroupsRequestView().statesFilter(List.of()).typesFilter(List.of("consumer")).struct()));
        assertThat(consumers.groups()).singleElement().satisfies(group -> {
            assertThat(group.groupId()).isEqualTo("g");
            assertThat(group.groupType()).isEqualTo("consumer");
            assertThat(group.protocolType()).isEqualTo("consumer");
            assertThat(group.groupState()).isEqualTo("Stable");
        });
        ListGroupsResponseView classic = new ListGroupsResponseView(client.call(ApiKey.LIST_GROUPS, 5,
                new ListGroupsRequestView().statesFilter(List.of()).typesFilter(List.of("classic")).struct()));
        assertThat(classic.groups()).isEmpty();

        DescribeGroupsResponseView described = new DescribeGroupsResponseView(client.call(ApiKey.DESCRIBE_GROUPS, 6,
                new DescribeGroupsRequestView().groups(List.of("g")).struct()));
        assertThat(described.groups().get(0).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(described.groups().get(0).errorMessage()).isEqualTo("Group g is not a classic group.");
    }

    @Test
    void deletedOnlyOnceEmpty() throws Exception {
        join();
        commit("m1", 2);
        assertThat(delete()).isEqualTo(Errors.NON_EMPTY_GROUP.code());
        heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(-1));
        assertThat(delete()).isEqualTo(Errors.NONE.code());
        assertThat(delete()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(fetch(null, -1)).isEqualTo(Errors.NONE.code());
        OffsetFetchRequestView request = new OffsetFetchRequestView();
        request.addGroup().groupId("g").topics(null);
        assertThat(new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 9, request.struct())).groups()
                .get(0).topics()).as("its commits went with it").isEmpty();
    }

    /** A group named twice is deleted and answered once, as Kafka's KafkaApis takes the distinct names. */
    @Test
    void aGroupNamedTwiceIsDeletedAndAnsweredOnce() throws Exception {
        join();
        commit("m1", 2);
        heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(-1));
        DeleteGroupsResponseView deleted = new DeleteGroupsResponseView(client.call(ApiKey.DELETE_GROUPS, 2,
                new DeleteGroupsRequestView().groupsNames(List.of("g", "g")).struct()));
        assertThat(deleted.results()).singleElement().satisfies(result -> {
            assertThat(result.groupId()).isEqualTo("g");
            assertThat(result.errorCode()).isEqualTo(Errors.NONE.code());
        });
    }

    /** The group's records and its commits go in one batch: after a restart neither comes back. */
    @Test
    void aDeletedGroupStaysDeletedAfterARestart() throws Exception {
        join();
        commit("m1", 2);
        heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(-1));
        assertThat(delete()).isEqualTo(Errors.NONE.code());

        client.close();
        broker.close();
        broker = TestBrokers.start(logDir, Map.of());
        client = new GroupWireClient(broker.boundPort("PLAINTEXT"));
        assertThat(delete()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        OffsetFetchRequestView request = new OffsetFetchRequestView();
        request.addGroup().groupId("g").topics(null);
        assertThat(new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 9, request.struct())).groups()
                .get(0).topics()).isEmpty();
    }

    private short classicJoin(String groupId) throws IOException {
        return classicJoin(groupId, "consumer");
    }

    private short classicJoin(String groupId, String protocolType) throws IOException {
        JoinGroupRequestView join = new JoinGroupRequestView().groupId(groupId).sessionTimeoutMs(10_000)
                .rebalanceTimeoutMs(10_000).memberId("").protocolType(protocolType);
        join.addProtocol().name("range").metadata(new byte[0]);
        return new JoinGroupResponseView(client.call(ApiKey.JOIN_GROUP, 9, join.struct())).errorCode();
    }

    @Test
    void theProtocolsKeepToTheirOwnGroups() throws Exception {
        join();
        // Kafka checks the protocols before MEMBER_ID_REQUIRED, and the embedded subscription only after it
        assertThat(classicJoin("g", "connect")).as("a classic member of another protocol type knocking")
                .isEqualTo(Errors.INCONSISTENT_GROUP_PROTOCOL.code());
        heartbeat(new ConsumerGroupHeartbeatRequestView().groupId("g").memberId("m1").memberEpoch(-1));
        assertThat(classicJoin("g")).as("an empty consumer group becomes a classic one")
                .isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        ConsumerGroupDescribeResponseView described = new ConsumerGroupDescribeResponseView(client.call(
                ApiKey.CONSUMER_GROUP_DESCRIBE, 1, new ConsumerGroupDescribeRequestView().groupIds(List.of("g"))
                        .struct()));
        assertThat(described.groups().get(0).errorMessage()).isEqualTo("Group g is not a consumer group.");

        assertThat(classicJoin("classic")).isEqualTo(Errors.MEMBER_ID_REQUIRED.code()); // a pending member now
        ConsumerGroupHeartbeatResponseView refused = heartbeat(new ConsumerGroupHeartbeatRequestView()
                .groupId("classic").memberId("m9").memberEpoch(0).rebalanceTimeoutMs(30_000)
                .subscribedTopicNames(List.of("t")).topicPartitions(List.of()));
        assertThat(refused.errorCode()).as("a classic group with only a pending member is taken over")
                .isEqualTo(Errors.NONE.code());

        OffsetCommitRequestView simple = new OffsetCommitRequestView().groupId("simple").memberId("")
                .generationIdOrMemberEpoch(-1);
        simple.addTopic().name("t").addPartition().partitionIndex(1).committedOffset(3);
        client.call(ApiKey.OFFSET_COMMIT, 9, simple.struct()); // an empty classic group, offsets only
        ConsumerGroupHeartbeatResponseView upgraded = heartbeat(new ConsumerGroupHeartbeatRequestView()
                .groupId("simple").memberId("m8").memberEpoch(0).rebalanceTimeoutMs(30_000)
                .subscribedTopicNames(List.of("t")).topicPartitions(List.of()));
        assertThat(upgraded.errorCode()).as("an empty classic group becomes a consumer group")
                .isEqualTo(Errors.NONE.code());
        OffsetFetchRequestView fetch = new OffsetFetchRequestView();
        fetch.addGroup().groupId("simple").memberId("m8").memberEpoch(upgraded.memberEpoch()).topics(null);
        assertThat(new OffsetFetchResponseView(client.call(ApiKey.OFFSET_FETCH, 9, fetch.struct())).groups().get(0)
                .topics()).as("its commits kept").singleElement()
                .satisfies(topic -> assertThat(topic.partitions().get(0).committedOffset()).isEqualTo(3));
    }

    /** As Kafka: an id naming a group of another type is "not a consumer group", whatever that type. */
    @Test
    void aShareGroupIsNotDescribedAsAConsumerGroup() throws Exception {
        client.call(ApiKey.SHARE_GROUP_HEARTBEAT, 1, new ShareGroupHeartbeatRequestView().groupId("shared")
                .memberId("s1").memberEpoch(0).subscribedTopicNames(List.of("t")).struct());
        ConsumerGroupDescribeResponseView described = new ConsumerGroupDescribeResponseView(client.call(
                ApiKey.CONSUMER_GROUP_DESCRIBE, 1, new ConsumerGroupDescribeRequestView()
                        .groupIds(List.of("shared")).struct()));
        assertThat(described.groups().get(0).errorCode()).isEqualTo(Errors.GROUP_ID_NOT_FOUND.code());
        assertThat(described.groups().get(0).errorMessage()).isEqualTo("Group shared is not a consumer group.");
    }

    /** As Kafka (and as a classic group): a TxnOffsetCommit naming no member is taken whatever the members. */
    @Test
    void aTransactionalCommitWithoutMemberFieldsIsTaken() throws Exception {
        join();
        TransactionalProducer producer = TransactionalProducer.begin(client, "tx", "g");
        TxnOffsetCommitRequestView commit = new TxnOffsetCommitRequestView().transactionalId("tx").groupId("g")
                .producerId(producer.id()).producerEpoch(producer.epoch()).generationIdOrMemberEpoch(-1).memberId("")
                .groupInstanceId(null);
        commit.addTopic().name("t").addPartition().partitionIndex(0).committedOffset(5).committedLeaderEpoch(-1)
                .committedMetadata("");
        assertThat(new TxnOffsetCommitResponseView(client.call(ApiKey.TXN_OFFSET_COMMIT, 3, commit.struct()))
                .topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        assertThat(commit("", -1)).as("an OffsetCommit so is not").isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
    }

    /** As Kafka: a KIP-848 member commits with OffsetCommit v9+, whose generation field is its member epoch. */
    @Test
    void anOffsetCommitBeforeV9FromAConsumerProtocolMemberIsUnsupported() throws Exception {
        join();
        OffsetCommitRequestView request = new OffsetCommitRequestView().groupId("g").memberId("m1")
                .generationIdOrMemberEpoch(2);
        request.addTopic().name("t").addPartition().partitionIndex(0).committedOffset(5);
        assertThat(new OffsetCommitResponseView(client.call(ApiKey.OFFSET_COMMIT, 8, request.struct()))
                .topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
        assertThat(commit("m1", 2)).isEqualTo(Errors.NONE.code());
    }

    private short delete() throws IOException {
        return new DeleteGroupsResponseView(client.call(ApiKey.DELETE_GROUPS, 2,
                new DeleteGroupsRequestView().groupsNames(List.of("g")).struct())).results().get(0).errorCode();
    }
}
