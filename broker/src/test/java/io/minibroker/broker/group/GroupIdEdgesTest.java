package io.minibroker.broker.group;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.Eventually;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.AlterShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.AlterShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.ConsumerGroupDescribeRequestData;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.DeleteShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsRequestData.DescribeShareGroupOffsetsRequestTopic;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseGroup;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponsePartition;
import org.apache.kafka.common.message.DescribeShareGroupOffsetsResponseData.DescribeShareGroupOffsetsResponseTopic;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.message.StreamsGroupDescribeRequestData;
import org.apache.kafka.common.message.StreamsGroupDescribeResponseData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The group APIs asked about an empty group id, a group that does not exist or is of another type, a classic group
 * whose member's metadata is no subscription, and FindCoordinator with each key type, answered as a Kafka 4.3.1 single node (KRaft, broker and controller in one process) answered
 * the same requests, sent side by side to it and to minibroker with kafka-clients' own request classes on
 * 2026-11-29 (session 26): codes, messages and the fields Kafka leaves at their defaults.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GroupIdEdgesTest {

    /** Kafka's INVALID_REQUEST text, which its answers carry where a whole request (or a v1-3 key) is refused. */
    private static final String INVALID_REQUEST_TEXT = Errors.INVALID_REQUEST.message();
    private static final String SHARE_KEY = "g:AAAAAAAAAAAAAAAAAAAAAA:0";

    @TempDir
    Path logDir;
    private Broker broker;
    private Admin admin;
    private Uuid topicId;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"));
        admin = TestBrokers.admin(broker);
        admin.createTopics(List.of(new NewTopic("t", 1, (short) 1))).all().get();
        topicId = admin.describeTopics(List.of("t")).allTopicNames().get().get("t").topicId();
    }

    @AfterEach
    void stop() throws Exception {
        admin.close();
        broker.close();
    }

    private ApiMessage exchange(ApiKeys api, short version, ApiMessage request) throws Exception {
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            return client.exchange(api, version, request);
        }
    }

    private FindCoordinatorResponseData findCoordinator(short version, byte keyType, String key) throws Exception {
        FindCoordinatorRequestData request = new FindCoordinatorRequestData().setKeyType(keyType);
        if (version >= 4) {
            request.setCoordinatorKeys(List.of(key));
        } else {
            request.setKey(key);
        }
        return (FindCoordinatorResponseData) exchange(ApiKeys.FIND_COORDINATOR, version, request);
    }

    /** The single coordinator of a v4+ answer. */
    private Coordinator batched(short version, byte keyType, String key) throws Exception {
        return findCoordinator(version, keyType, key).coordinators().get(0);
    }

    /** Asks until the key has a coordinator: the first ask has the coordinators' topic it needs created. */
    private void awaitCoordinator(byte keyType, String key) {
        Eventually.await(() -> {
            try {
                return batched((short) 6, keyType, key).errorCode() == Errors.NONE.code();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, "a coordinator for " + key);
    }

    /**
     * Kafka's KafkaApis leaves a v4+ coordinator's message empty, error or not, and gives a v1-3 answer its error's
     * message, which for no error is "NONE" (Errors.NONE has no exception; its message is its name).
     */
    @Test
    void findCoordinatorMessagesAreKafkas() throws Exception {
        awaitCoordinator((byte) 0, "g");
        for (short version = 4; version <= 6; version++) {
            Coordinator found = batched(version, (byte) 0, "g");
            assertThat(found.errorCode()).isZero();
            assertThat(found.errorMessage()).as("v%d", version).isEmpty();
        }
        for (short version = 1; version <= 3; version++) {
            FindCoordinatorResponseData found = findCoordinator(version, (byte) 0, "g");
            assertThat(found.errorCode()).isZero();
            assertThat(found.errorMessage()).as("v%d", version).isEqualTo("NONE");
        }
    }

    /**
     * Key type 2 (KIP-932) names a share partition, {@code groupId:topicId:partition}, whose coordinator is the leader
     * of its partition of {@code __share_group_state}: this node, once the topic exists (the first ask creates it and
     * is COORDINATOR_NOT_AVAILABLE, as for the other coordinators' topics). A key Kafka's SharePartitionKey cannot
     * read, or the type in a request before v6, is INVALID_REQUEST for that key, with no message from v4 on and
     * Kafka's INVALID_REQUEST text before.
     */
    @Test
    void shareKeysFindTheShareCoordinator() throws Exception {
        Coordinator first = batched((short) 6, (byte) 2, SHARE_KEY);
        assertThat(first.errorCode()).as("the topic is being created").isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE.code());
        assertThat(first.errorMessage()).isEmpty();
        awaitCoordinator((byte) 2, SHARE_KEY);
        Coordinator found = batched((short) 6, (byte) 2, SHARE_KEY);
        assertThat(found.nodeId()).as("the single node's id").isEqualTo(1);
        assertThat(found.port()).isEqualTo(broker.boundPort("PLAINTEXT"));
        // ':' in the group id is kept (the last two parts are the topic id and partition); "+3" reads as 3
        assertThat(batched((short) 6, (byte) 2, "a:b:AAAAAAAAAAAAAAAAAAAAAA:+3").errorCode()).isZero();

        for (String malformed : List.of("g", ":AAAAAAAAAAAAAAAAAAAAAA:1", " :AAAAAAAAAAAAAAAAAAAAAA:1",
                "g:AAAAAAAAAAAAAAAAAAAAAAAA:1", "g:not-an-id:1", "g:AAAAAAAAAAAAAAAAAAAAAA:x", "")) {
            Coordinator refused = batched((short) 6, (byte) 2, malformed);
            assertThat(refused.errorCode()).as(malformed).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(refused.errorMessage()).as(malformed).isEmpty();
            assertThat(refused.nodeId()).isEqualTo(-1);
        }
        for (short version = 4; version <= 5; version++) {
            Coordinator early = batched(version, (byte) 2, SHARE_KEY);
            assertThat(early.errorCode()).as("v%d", version).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(early.errorMessage()).isEmpty();
        }
        for (short version = 1; version <= 3; version++) {
            FindCoordinatorResponseData early = findCoordinator(version, (byte) 2, SHARE_KEY);
            assertThat(early.errorCode()).as("v%d", version).isEqualTo(Errors.INVALID_REQUEST.code());
            assertThat(early.errorMessage()).isEqualTo(INVALID_REQUEST_TEXT);
        }
    }

    /** A key type Kafka has no coordinator for fails the whole request, its INVALID_REQUEST text in each answer. */
    @Test
    void anUnknownKeyTypeIsAnInvalidRequest() throws Exception {
        Coordinator refused = batched((short) 6, (byte) 3, "g");
        assertThat(refused.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(refused.errorMessage()).isEqualTo(INVALID_REQUEST_TEXT);
        FindCoordinatorResponseData old = findCoordinator((short) 3, (byte) 3, "g");
        assertThat(old.errorCode()).isEqualTo(Errors.INVALID_REQUEST.code());
        assertThat(old.errorMessage()).isEqualTo(INVALID_REQUEST_TEXT);
        assertThat(old.nodeId()).isEqualTo(-1);
    }

    /** Kafka's GroupCoordinatorService refuses an empty group id INVALID_GROUP_ID before it looks for the group. */
    @Test
    void anEmptyGroupIdIsInvalid() throws Exception {
        awaitCoordinator((byte) 0, "g");
        var consumerGroups = (ConsumerGroupDescribeResponseData) exchange(ApiKeys.CONSUMER_GROUP_DESCRIBE, (short) 1,
                new ConsumerGroupDescribeRequestData().setGroupIds(List.of("", "nope")));
        assertThat(consumerGroups.groups()).extracting(g -> g.groupId() + " " + g.errorCode() + " " + g.errorMessage())
                .containsExactly(" 24 null", "nope 69 Group nope not found.");
        var streamsGroups = (StreamsGroupDescribeResponseData) exchange(ApiKeys.STREAMS_GROUP_DESCRIBE, (short) 0,
                new StreamsGroupDescribeRequestData().setGroupIds(List.of("", "nope")));
        assertThat(streamsGroups.groups()).extracting(g -> g.groupId() + " " + g.errorCode() + " " + g.errorMessage())
                .containsExactly(" 24 null", "nope 69 Group nope not found.");

        OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection topics =
                new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection();
        topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName("t").setPartitions(List.of(
                new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
        var offsetDelete = (OffsetDeleteResponseData) exchange(ApiKeys.OFFSET_DELETE, (short) 0,
                new OffsetDeleteRequestData().setGroupId("").setTopics(topics));
        assertThat(offsetDelete.errorCode()).isEqualTo(Errors.INVALID_GROUP_ID.code());
        assertThat(offsetDelete.topics()).isEmpty();

        var txnOffsets = (TxnOffsetCommitResponseData) exchange(ApiKeys.TXN_OFFSET_COMMIT, (short) 5,
                new TxnOffsetCommitRequestData().setTransactionalId("tx").setGroupId("").setProducerId(1)
                        .setProducerEpoch((short) 0).setGenerationIdOrMemberEpoch(-1).setMemberId("")
                        .setTopics(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic().setName("t")
                                .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                        .setPartitionIndex(0).setCommittedOffset(0))))));
        assertThat(txnOffsets.topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.INVALID_GROUP_ID.code());

        var alter = (AlterShareGroupOffsetsResponseData) exchange(ApiKeys.ALTER_SHARE_GROUP_OFFSETS, (short) 0,
                alterShareOffsets(""));
        assertThat(alter.errorCode() + " " + alter.errorMessage()).isEqualTo("24 The group id is invalid.");
        var delete = (DeleteShareGroupOffsetsResponseData) exchange(ApiKeys.DELETE_SHARE_GROUP_OFFSETS, (short) 0,
                deleteShareOffsets(""));
        assertThat(delete.errorCode() + " " + delete.errorMessage()).isEqualTo("24 The group id is invalid.");

        // DescribeShareGroupOffsets does not check the id: every offset of "" is none; naming a topic, Kafka's
        // persister fails the group's read (UNKNOWN_SERVER_ERROR).
        assertThat(describeShareOffsets("", null).topics()).isEmpty();
        DescribeShareGroupOffsetsResponseGroup named = describeShareOffsets("", List.of(
                new DescribeShareGroupOffsetsRequestTopic().setTopicName("t").setPartitions(List.of(0))));
        assertThat(named.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
        assertThat(named.errorMessage()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.message());
        assertThat(named.topics()).isEmpty();
    }

    /**
     * Kafka's GroupCoordinatorService refuses only a null group id for OffsetCommit and OffsetFetch: "" commits as a
     * simple group (Empty, described and deleted as any other), as the node answered at every version (v2-v9).
     */
    @Test
    void anEmptyGroupIdCommitsAndFetchesAsAnyOther() throws Exception {
        awaitCoordinator((byte) 0, "");
        var committed = (OffsetCommitResponseData) exchange(ApiKeys.OFFSET_COMMIT, (short) 9,
                new OffsetCommitRequestData().setGroupId("").setGenerationIdOrMemberEpoch(-1).setMemberId("")
                        .setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic().setName("t")
                                .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                                        .setPartitionIndex(0).setCommittedOffset(7))))));
        assertThat(committed.topics().get(0).partitions().get(0).errorCode()).isZero();
        var fetched = (OffsetFetchResponseData) exchange(ApiKeys.OFFSET_FETCH, (short) 9,
                new OffsetFetchRequestData().setGroups(List.of(new OffsetFetchRequestData.OffsetFetchRequestGroup()
                        .setGroupId("").setTopics(null))));
        assertThat(fetched.groups().get(0).topics())
                .flatExtracting(OffsetFetchResponseData.OffsetFetchResponseTopics::partitions)
                .extracting(OffsetFetchResponseData.OffsetFetchResponsePartitions::committedOffset).containsExactly(7L);
        var described = (DescribeGroupsResponseData) exchange(ApiKeys.DESCRIBE_GROUPS, (short) 5,
                new DescribeGroupsRequestData().setGroups(List.of("")));
        assertThat(described.groups().get(0).groupState()).isEqualTo("Empty");
        var deleted = (DeleteGroupsResponseData) exchange(ApiKeys.DELETE_GROUPS, (short) 2,
                new DeleteGroupsRequestData().setGroupsNames(List.of("")));
        assertThat(deleted.results().iterator().next().errorCode()).isZero();
    }

    /**
     * DescribeShareGroupOffsets asks the share coordinators whatever the group is: a group that does not exist, or is
     * a consumer group, has no offsets (start offset -1, no error), nor does a topic the cluster does not know (the
     * zero topic id) or a partition past the topic's, the known topics answered first. DeleteShareGroupOffsets
     * refuses such groups GROUP_ID_NOT_FOUND with the group coordinator's message.
     */
    @Test
    void shareOffsetsOfAGroupThatIsNoShareGroup() throws Exception {
        awaitCoordinator((byte) 0, "c");
        joinConsumerGroup("c");
        for (String group : List.of("unknown", "c")) {
            assertThat(describeShareOffsets(group, null).errorCode()).isZero();
            assertThat(describeShareOffsets(group, null).topics()).isEmpty();
            DescribeShareGroupOffsetsResponseGroup described = describeShareOffsets(group, List.of(
                    new DescribeShareGroupOffsetsRequestTopic().setTopicName("nosuch").setPartitions(List.of(0)),
                    new DescribeShareGroupOffsetsRequestTopic().setTopicName("t").setPartitions(List.of(5, 0))));
            assertThat(described.errorCode()).isZero();
            assertThat(described.topics()).extracting(DescribeShareGroupOffsetsResponseTopic::topicName,
                    DescribeShareGroupOffsetsResponseTopic::topicId)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("t", topicId),
                            org.assertj.core.groups.Tuple.tuple("nosuch", Uuid.ZERO_UUID));
            assertThat(described.topics()).flatExtracting(DescribeShareGroupOffsetsResponseTopic::partitions)
                    .extracting(p -> p.partitionIndex() + " " + p.startOffset() + " " + p.leaderEpoch() + " "
                            + p.lag() + " " + p.errorCode())
                    .containsExactly("5 -1 0 -1 0", "0 -1 0 -1 0", "0 -1 0 -1 0");
        }
        var unknown = (DeleteShareGroupOffsetsResponseData) exchange(ApiKeys.DELETE_SHARE_GROUP_OFFSETS, (short) 0,
                deleteShareOffsets("unknown"));
        assertThat(unknown.errorCode() + " " + unknown.errorMessage()).isEqualTo("69 Group unknown not found.");
        var consumer = (DeleteShareGroupOffsetsResponseData) exchange(ApiKeys.DELETE_SHARE_GROUP_OFFSETS, (short) 0,
                deleteShareOffsets("c"));
        assertThat(consumer.errorCode() + " " + consumer.errorMessage())
                .isEqualTo("69 Group c is not a share group.");
    }

    /**
     * OffsetDelete of a classic group with members refuses the topics they consume, GROUP_SUBSCRIBED_TO_TOPIC; as
     * Kafka's ClassicGroup.isSubscribedToTopic, a consumer-protocol group whose member's metadata is no subscription
     * (here empty bytes, as the side-by-side probe joined) consumes every topic, as far as the coordinator knows.
     */
    @Test
    void offsetDeleteTakesAnUnreadableSubscriptionForEveryTopic() throws Exception {
        awaitCoordinator((byte) 0, "unreadable");
        joinClassicGroup("unreadable", new byte[0]);
        assertThat(deleteOffsetOfT("unreadable")).isEqualTo(Errors.GROUP_SUBSCRIBED_TO_TOPIC.code());

        awaitCoordinator((byte) 0, "readable");
        byte[] subscribedToU = Utils.toArray(ConsumerProtocol.serializeSubscription(
                new ConsumerPartitionAssignor.Subscription(List.of("u"))));
        joinClassicGroup("readable", subscribedToU);
        assertThat(deleteOffsetOfT("readable")).as("t is not consumed").isEqualTo(Errors.NONE.code());
    }

    private void joinClassicGroup(String groupId, byte[] metadata) throws Exception {
        JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols =
                new JoinGroupRequestData.JoinGroupRequestProtocolCollection();
        protocols.add(new JoinGroupRequestData.JoinGroupRequestProtocol().setName("range").setMetadata(metadata));
        JoinGroupRequestData join = new JoinGroupRequestData().setGroupId(groupId).setMemberId("")
                .setProtocolType("consumer").setSessionTimeoutMs(30_000).setRebalanceTimeoutMs(30_000)
                .setProtocols(protocols);
        var first = (JoinGroupResponseData) exchange(ApiKeys.JOIN_GROUP, (short) 9, join);
        assertThat(first.errorCode()).isEqualTo(Errors.MEMBER_ID_REQUIRED.code());
        var joined = (JoinGroupResponseData) exchange(ApiKeys.JOIN_GROUP, (short) 9,
                join.duplicate().setMemberId(first.memberId()));
        assertThat(joined.errorCode()).isZero();
    }

    private short deleteOffsetOfT(String groupId) throws Exception {
        OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection topics =
                new OffsetDeleteRequestData.OffsetDeleteRequestTopicCollection();
        topics.add(new OffsetDeleteRequestData.OffsetDeleteRequestTopic().setName("t").setPartitions(List.of(
                new OffsetDeleteRequestData.OffsetDeleteRequestPartition().setPartitionIndex(0))));
        var response = (OffsetDeleteResponseData) exchange(ApiKeys.OFFSET_DELETE, (short) 0,
                new OffsetDeleteRequestData().setGroupId(groupId).setTopics(topics));
        assertThat(response.errorCode()).isZero();
        return response.topics().iterator().next().partitions().iterator().next().errorCode();
    }

    /** A member subscribed by names describes its regex as "", as Kafka's member record holds it, not null. */
    @Test
    void aMemberWithoutARegexDescribesItEmpty() throws Exception {
        awaitCoordinator((byte) 0, "c");
        joinConsumerGroup("c");
        var described = (ConsumerGroupDescribeResponseData) exchange(ApiKeys.CONSUMER_GROUP_DESCRIBE, (short) 1,
                new ConsumerGroupDescribeRequestData().setGroupIds(List.of("c")));
        assertThat(described.groups().get(0).members()).singleElement()
                .satisfies(member -> assertThat(member.subscribedTopicRegex()).isEmpty());
    }

    private void joinConsumerGroup(String groupId) throws Exception {
        var joined = (ConsumerGroupHeartbeatResponseData) exchange(ApiKeys.CONSUMER_GROUP_HEARTBEAT, (short) 1,
                new ConsumerGroupHeartbeatRequestData().setGroupId(groupId).setMemberId(Uuid.randomUuid().toString())
                        .setMemberEpoch(0).setRebalanceTimeoutMs(10_000).setSubscribedTopicNames(List.of("t"))
                        .setTopicPartitions(List.of()));
        assertThat(joined.errorCode()).isZero();
    }

    private DescribeShareGroupOffsetsResponseGroup describeShareOffsets(
            String groupId, List<DescribeShareGroupOffsetsRequestTopic> topics) throws Exception {
        var response = (DescribeShareGroupOffsetsResponseData) exchange(ApiKeys.DESCRIBE_SHARE_GROUP_OFFSETS,
                (short) 1, new DescribeShareGroupOffsetsRequestData().setGroups(List.of(
                        new DescribeShareGroupOffsetsRequestGroup().setGroupId(groupId).setTopics(topics))));
        return response.groups().get(0);
    }

    private static AlterShareGroupOffsetsRequestData alterShareOffsets(String groupId) {
        AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestTopicCollection topics =
                new AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestTopicCollection();
        topics.add(new AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestTopic().setTopicName("t")
                .setPartitions(List.of(new AlterShareGroupOffsetsRequestData.AlterShareGroupOffsetsRequestPartition()
                        .setPartitionIndex(0).setStartOffset(0))));
        return new AlterShareGroupOffsetsRequestData().setGroupId(groupId).setTopics(topics);
    }

    private static DeleteShareGroupOffsetsRequestData deleteShareOffsets(String groupId) {
        return new DeleteShareGroupOffsetsRequestData().setGroupId(groupId).setTopics(List.of(
                new DeleteShareGroupOffsetsRequestData.DeleteShareGroupOffsetsRequestTopic().setTopicName("t")));
    }
}
