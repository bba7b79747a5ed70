package io.minibroker.broker.authz;

import io.minibroker.broker.admin.AlterConfigOp;
import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddPartitionsToTxnRequestView;
import io.minibroker.protocol.message.view.AddPartitionsToTxnResponseView;
import io.minibroker.protocol.message.view.AddRaftVoterRequestView;
import io.minibroker.protocol.message.view.AddRaftVoterResponseView;
import io.minibroker.protocol.message.view.AlterPartitionResponseView;
import io.minibroker.protocol.message.view.BrokerHeartbeatResponseView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeRequestView;
import io.minibroker.protocol.message.view.ConsumerGroupDescribeResponseView;
import io.minibroker.protocol.message.view.DeleteGroupsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.DescribeConfigsRequestView;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsResponseView;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateRequestView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochRequestView;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochResponseView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryResponseView;
import io.minibroker.protocol.message.view.RemoveRaftVoterRequestView;
import io.minibroker.protocol.message.view.RemoveRaftVoterResponseView;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.message.view.WriteTxnMarkersRequestView;
import io.minibroker.protocol.message.view.WriteTxnMarkersResponseView;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The checks no kafka-clients user reaches on its own, driven through {@link AuthorizingHandler} with a recording
 * handler behind it: the requests brokers send each other need CLUSTER_ACTION (a follower's Fetch and
 * OffsetForLeaderEpoch, WriteTxnMarkers, AddPartitionsToTxn's verification from v4, AlterPartition,
 * BrokerHeartbeat); ListOffsets and Produce are checked per topic before anything is looked up (a client's Metadata
 * or InitProducerId would refuse first), the refused topics answered next to the served ones; an acks=0 produce
 * that is refused closes the connection.
 */
class DirectChecksTest {

    private static final KafkaPrincipal BROKER = KafkaPrincipal.user("broker");
    private static final KafkaPrincipal CLIENT = KafkaPrincipal.user("client");
    private static final BrokerConfigChanges BROKER_CONFIGS = BrokerConfigChanges.ofBroker(0,
            BrokerConfigOverrides.mirror(() -> { }), RuntimeLoggers.NONE);

    @TempDir
    Path dir;
    private StandardAuthorizer authorizer;
    private final List<Request> served = new ArrayList<>();

    @BeforeEach
    void grants() throws Exception {
        authorizer = StandardAuthorizer.open(dir, null, false);
        authorizer.create(List.of(
                new AclBinding(ResourceType.CLUSTER, AclBinding.CLUSTER_NAME, PatternType.LITERAL, "User:broker",
                        "*", AclOperation.CLUSTER_ACTION, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.TOPIC, "open", PatternType.LITERAL, "User:client", "*",
                        AclOperation.READ, AclPermissionType.ALLOW)));
    }

    private Struct call(KafkaPrincipal principal, ApiKey api, short version, Struct body,
                        Supplier<Struct> response) {
        ApiHandler recording = (context, request) -> {
            served.add(request);
            return CompletableFuture.completedFuture(response.get());
        };
        ApiHandler handler = AuthorizingHandler.wrap(api, recording, authorizer,
                new TopicFacts(id -> Optional.empty(), name -> Optional.of(java.util.UUID.randomUUID()),
                (name, partition) -> partition < 3, true, true), BROKER_CONFIGS);
        RequestContext context = TestContexts.withTlsPrincipal("SSL", new InetSocketAddress("127.0.0.1", 5555),
                principal);
        return handler.handle(context, new Request(new RequestHeader(api.id(), version, 1, "test"), api, body))
                .toCompletableFuture().join();
    }

    /** A follower names itself in ReplicaId before v15, in ReplicaState from v15. */
    private static Struct followerFetch(short version) {
        FetchRequestView request = new FetchRequestView();
        if (version >= 15) {
            request.replicaState().replicaId(2).replicaEpoch(7);
        } else {
            request.replicaId(2);
        }
        request.addTopic().topic("open").addPartition().partition(0);
        return request.struct();
    }

    @Test
    void aFollowersFetchNeedsClusterAction() {
        for (short version : new short[] {12, 15}) {
            served.clear();
            FetchResponseView refused = new FetchResponseView(call(CLIENT, ApiKey.FETCH, version,
                    followerFetch(version), () -> new FetchResponseView().struct()));
            assertThat(served).as("refused before the handler, v" + version).isEmpty();
            assertThat(refused.responses().get(0).partitions().get(0).errorCode())
                    .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
            call(BROKER, ApiKey.FETCH, version, followerFetch(version), () -> new FetchResponseView().struct());
            assertThat(served).hasSize(1);
        }
    }

    @Test
    void listOffsetsNeedsDescribeOnEachTopicAndAnswersTheRefusedOnes() {
        ListOffsetsRequestView request = new ListOffsetsRequestView();
        request.addTopic().name("open").addPartition().partitionIndex(0);
        request.addTopic().name("closed").addPartition().partitionIndex(3);
        ListOffsetsResponseView response = new ListOffsetsResponseView(call(CLIENT, ApiKey.LIST_OFFSETS, (short) 9,
                request.struct(), () -> {
                    ListOffsetsResponseView served = new ListOffsetsResponseView();
                    served.addTopic().name("open").addPartition().partitionIndex(0).offset(42L);
                    return served.struct();
                }));
        assertThat(new ListOffsetsRequestView(served.get(0).body()).topics()).extracting(t -> t.name())
                .containsExactly("open");
        assertThat(response.topics()).extracting(t -> t.name()).containsExactly("open", "closed");
        assertThat(response.topics().get(1).partitions().get(0).partitionIndex()).isEqualTo(3);
        assertThat(response.topics().get(1).partitions().get(0).errorCode())
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
    }

    /**
     * A client's AddPartitionsToTxn (v3) with one topic refused: nothing is added; the refused topic answers
     * TOPIC_AUTHORIZATION_FAILED, a partition the allowed topic does not have UNKNOWN_TOPIC_OR_PARTITION (Kafka asks
     * its metadata cache per partition), the allowed partition OPERATION_NOT_ATTEMPTED.
     */
    @Test
    void aClientsAddPartitionsToTxnWithARefusedTopicAnswersEachPartitionByWhatItIs() throws Exception {
        authorizer.create(List.of(
                new AclBinding(ResourceType.TRANSACTIONAL_ID, "tx", PatternType.LITERAL, "User:client", "*",
                        AclOperation.WRITE, AclPermissionType.ALLOW),
                new AclBinding(ResourceType.TOPIC, "open", PatternType.LITERAL, "User:client", "*",
                        AclOperation.WRITE, AclPermissionType.ALLOW)));
        AddPartitionsToTxnRequestView request = new AddPartitionsToTxnRequestView().v3AndBelowTransactionalId("tx")
                .v3AndBelowProducerId(1).v3AndBelowProducerEpoch((short) 0);
        request.addV3AndBelowTopic().name("open").partitions(List.of(0, 7)); // the fake topics have partitions 0-2
        request.addV3AndBelowTopic().name("closed").partitions(List.of(0));
        AddPartitionsToTxnResponseView response = new AddPartitionsToTxnResponseView(call(CLIENT,
                ApiKey.ADD_PARTITIONS_TO_TXN, (short) 3, request.struct(),
                () -> new AddPartitionsToTxnResponseView().struct()));

        assertThat(served).isEmpty();
        var open = response.resultsByTopicV3AndBelow().get(0).resultsByPartition();
        assertThat(open.get(0).partitionErrorCode()).isEqualTo(Errors.OPERATION_NOT_ATTEMPTED.code());
        assertThat(open.get(1).partitionIndex()).isEqualTo(7);
        assertThat(open.get(1).partitionErrorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        assertThat(response.resultsByTopicV3AndBelow().get(1).resultsByPartition().get(0).partitionErrorCode())
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
    }

    /**
     * A Metadata request naming a topic by id with an empty name (what a KIP-848 consumer sends for the topics of its
     * assignment) is checked by the id's topic, not refused as a topic named "".
     */
    @Test
    void metadataForATopicNamedByIdWithAnEmptyNameIsCheckedByTheId() {
        MetadataRequestView request = new MetadataRequestView();
        request.addTopic().name("").topicId(java.util.UUID.randomUUID());
        call(CLIENT, ApiKey.METADATA, (short) 12, request.struct(), () -> new MetadataResponseView().struct());
        assertThat(served).as("served: the id names no topic this broker knows, which its handler answers").hasSize(1);
    }

    /**
     * A Metadata v0 request with no topics asks for all of them (as a null list does from v1): the answer keeps only
     * the topics the principal may describe.
     */
    @Test
    void metadataV0WithNoTopicsAnswersOnlyTheDescribableTopics() {
        MetadataRequestView request = new MetadataRequestView();
        request.topics(new ArrayList<>());
        MetadataResponseView response = new MetadataResponseView(call(CLIENT, ApiKey.METADATA, (short) 0,
                request.struct(), () -> {
                    MetadataResponseView all = new MetadataResponseView();
                    all.addTopic().name("open");
                    all.addTopic().name("secret");
                    return all.struct();
                }));
        assertThat(response.topics()).extracting(t -> t.name()).containsExactly("open");
    }

    /**
     * Metadata's authorized operations (v8+) go to every topic looked up, whatever its error, not to the refused
     * ones.
     */
    @Test
    void metadataTellsTheAuthorizedOperationsOfTopicsAnsweredWithAnError() {
        MetadataRequestView request = new MetadataRequestView().includeTopicAuthorizedOperations(true);
        request.addTopic().name("open");
        request.addTopic().name("closed");
        MetadataResponseView response = new MetadataResponseView(call(CLIENT, ApiKey.METADATA, (short) 12,
                request.struct(), () -> {
                    MetadataResponseView served = new MetadataResponseView();
                    served.addTopic().name("open").errorCode(Errors.LEADER_NOT_AVAILABLE.code());
                    return served.struct();
                }));
        int readAndDescribe = (1 << AclOperation.READ.code()) | (1 << AclOperation.DESCRIBE.code());
        assertThat(response.topics()).extracting(t -> t.name()).containsExactly("open", "closed");
        assertThat(response.topics()).extracting(t -> t.topicAuthorizedOperations())
                .containsExactly(readAndDescribe, Integer.MIN_VALUE);
    }

    /** A FindCoordinator v1-3 refusal carries the error's message, as Kafka's prepareOldResponse. */
    @Test
    void anOldFindCoordinatorRefusalCarriesKafkasMessage() {
        FindCoordinatorResponseView coordinator = new FindCoordinatorResponseView(call(CLIENT,
                ApiKey.FIND_COORDINATOR, (short) 3, new FindCoordinatorRequestView().key("g").struct(),
                () -> new FindCoordinatorResponseView().struct()));
        assertThat(coordinator.errorCode()).isEqualTo(Errors.GROUP_AUTHORIZATION_FAILED.code());
        assertThat(coordinator.errorMessage()).isEqualTo("Group authorization failed.");
    }

    /** Share-state keys (FindCoordinator v6, key type 2) need CLUSTER_ACTION, as Kafka's getCoordinator checks. */
    @Test
    void findingAShareCoordinatorNeedsClusterAction() {
        Struct request = new FindCoordinatorRequestView().keyType((byte) 2)
                .coordinatorKeys(List.of("g:" + UUID.randomUUID() + ":0")).struct();
        FindCoordinatorResponseView refused = new FindCoordinatorResponseView(call(CLIENT, ApiKey.FIND_COORDINATOR,
                (short) 6, request, () -> new FindCoordinatorResponseView().struct()));
        assertThat(served).isEmpty();
        assertThat(refused.coordinators()).extracting(c -> c.errorCode())
                .containsExactly(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        call(BROKER, ApiKey.FIND_COORDINATOR, (short) 6, request, () -> new FindCoordinatorResponseView().struct());
        assertThat(served).hasSize(1);
    }

    /**
     * AddRaftVoter and RemoveRaftVoter need ALTER on the cluster, as Kafka's ControllerApis asks; refused, they carry
     * the error's message, as Kafka's getErrorResponse of both sets it.
     */
    @Test
    void aRaftVoterChangeNeedsAlterOnTheCluster() throws Exception {
        AddRaftVoterResponseView added = new AddRaftVoterResponseView(call(CLIENT, ApiKey.ADD_RAFT_VOTER, (short) 1,
                new AddRaftVoterRequestView().struct(), () -> new AddRaftVoterResponseView().struct()));
        RemoveRaftVoterResponseView removed = new RemoveRaftVoterResponseView(call(CLIENT, ApiKey.REMOVE_RAFT_VOTER,
                (short) 0, new RemoveRaftVoterRequestView().struct(), () -> new RemoveRaftVoterResponseView().struct()));
        assertThat(served).as("nothing served").isEmpty();
        assertThat(added.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(added.errorMessage()).isEqualTo("Cluster authorization failed.");
        assertThat(removed.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(removed.errorMessage()).isEqualTo("Cluster authorization failed.");

        authorizer.create(List.of(new AclBinding(ResourceType.CLUSTER, AclBinding.CLUSTER_NAME, PatternType.LITERAL,
                "User:client", "*", AclOperation.ALTER, AclPermissionType.ALLOW)));
        call(CLIENT, ApiKey.ADD_RAFT_VOTER, (short) 1, new AddRaftVoterRequestView().struct(),
                () -> new AddRaftVoterResponseView().struct());
        call(CLIENT, ApiKey.REMOVE_RAFT_VOTER, (short) 0, new RemoveRaftVoterRequestView().struct(),
                () -> new RemoveRaftVoterResponseView().struct());
        assertThat(served).extracting(Request::api).containsExactly(ApiKey.ADD_RAFT_VOTER, ApiKey.REMOVE_RAFT_VOTER);
    }

    /**
     * The resources IncrementalAlterConfigs' own checks refuse (named twice, a key named twice, a null value) are
     * answered those refusals whatever the ACLs, as Kafka's brokers preprocess them before the controller authorizes;
     * the others are refused TOPIC_AUTHORIZATION_FAILED; each in its place in the request, as Kafka's broker
     * reassembles the answer.
     */
    @Test
    void alterConfigsAnswersWhatTheRequestsOwnChecksRefuseBeforeTheAcls() {
        IncrementalAlterConfigsRequestView request = new IncrementalAlterConfigsRequestView();
        for (String twice : List.of("twice", "twice")) {
            request.addResource().resourceType(ConfigResources.TOPIC).resourceName(twice).addConfig()
                    .name("retention.ms").value("1000").configOperation(AlterConfigOp.SET);
        }
        IncrementalAlterConfigsRequestView.AlterConfigsResource keys = request.addResource()
                .resourceType(ConfigResources.TOPIC).resourceName("keys");
        keys.addConfig().name("retention.ms").value("1000").configOperation(AlterConfigOp.SET);
        keys.addConfig().name("retention.ms").value("2000").configOperation(AlterConfigOp.SET);
        request.addResource().resourceType(ConfigResources.TOPIC).resourceName("nulls").addConfig()
                .name("retention.ms").value(null).configOperation(AlterConfigOp.SET);
        request.addResource().resourceType(ConfigResources.TOPIC).resourceName("plain").addConfig()
                .name("retention.ms").value("1000").configOperation(AlterConfigOp.SET);

        IncrementalAlterConfigsResponseView answer = new IncrementalAlterConfigsResponseView(call(CLIENT,
                ApiKey.INCREMENTAL_ALTER_CONFIGS, (short) 1, request.struct(),
                () -> new IncrementalAlterConfigsResponseView().struct()));

        assertThat(served).as("nothing the principal may alter").isEmpty();
        short invalid = Errors.INVALID_REQUEST.code();
        assertThat(answer.responses()).extracting(r -> tuple(r.resourceName(), r.errorCode(), r.errorMessage()))
                .containsExactly(tuple("twice", invalid, "Each resource must appear at most once."),
                        tuple("twice", invalid, "Each resource must appear at most once."),
                        tuple("keys", invalid, "Error due to duplicate config keys"),
                        tuple("nulls", invalid, "Null value not supported for : retention.ms"),
                        tuple("plain", Errors.TOPIC_AUTHORIZATION_FAILED.code(), "Topic authorization failed."));
    }

    /**
     * A DescribeConfigs naming a resource type Kafka does not know is the handler's whole, the refused topic in it
     * too: Kafka's ConfigHelper refuses the request whole while it authorizes.
     */
    @Test
    void describeConfigsWithAnUnknownResourceTypeIsTheHandlersWhole() {
        DescribeConfigsRequestView request = new DescribeConfigsRequestView();
        request.addResource().resourceType(ConfigResources.TOPIC).resourceName("closed").configurationKeys(null);
        request.addResource().resourceType((byte) 0).resourceName("what").configurationKeys(null);

        call(CLIENT, ApiKey.DESCRIBE_CONFIGS, (short) 4, request.struct(),
                () -> new DescribeConfigsResponseView().struct());

        assertThat(served).hasSize(1);
        assertThat(new DescribeConfigsRequestView(served.get(0).body()).resources())
                .extracting(DescribeConfigsRequestView.DescribeConfigsResource::resourceName)
                .containsExactly("closed", "what");
    }

    /** A DeleteTopics v5 refusal by name carries the error's message (the field exists from v5). */
    @Test
    void aDeleteTopicsV5RefusalCarriesKafkasMessage() {
        DeleteTopicsResponseView deleted = new DeleteTopicsResponseView(call(CLIENT, ApiKey.DELETE_TOPICS,
                (short) 5, new DeleteTopicsRequestView().timeoutMs(30_000).topicNames(List.of("closed")).struct(),
                () -> new DeleteTopicsResponseView().struct()));
        assertThat(deleted.responses().get(0).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(deleted.responses().get(0).errorMessage()).isEqualTo("Topic authorization failed.");
    }

    /** DeleteGroups authorizes the distinct names, as Kafka's KafkaApis: a refused group named twice, answered once. */
    @Test
    void aRefusedGroupNamedTwiceInDeleteGroupsIsAnsweredOnce() {
        DeleteGroupsResponseView deleted = new DeleteGroupsResponseView(call(CLIENT, ApiKey.DELETE_GROUPS, (short) 2,
                new DeleteGroupsRequestView().groupsNames(List.of("g", "g")).struct(),
                () -> new DeleteGroupsResponseView().struct()));
        assertThat(deleted.results()).extracting(r -> r.groupId(), r -> r.errorCode())
                .containsExactly(tuple("g", Errors.GROUP_AUTHORIZATION_FAILED.code()));
    }

    /**
     * A DescribeUserScramCredentials refusal is Kafka's error response: the top-level error, and a result for each
     * named user with the error (its name left empty).
     */
    @Test
    void aDescribeUserScramCredentialsRefusalAnswersEachNamedUser() {
        DescribeUserScramCredentialsRequestView users = new DescribeUserScramCredentialsRequestView();
        users.addUser().name("alice");
        users.addUser().name("bob");
        DescribeUserScramCredentialsResponseView scram = new DescribeUserScramCredentialsResponseView(call(CLIENT,
                ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, (short) 0, users.struct(),
                () -> new DescribeUserScramCredentialsResponseView().struct()));
        assertThat(served).as("nothing served").isEmpty();
        assertThat(scram.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(scram.results()).extracting(r -> r.user(), r -> r.errorCode()).containsExactly(
                tuple("", Errors.CLUSTER_AUTHORIZATION_FAILED.code()),
                tuple("", Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
    }

    /** A described group refused for its assignment's topics is a fresh group: no authorized operations either. */
    @Test
    void aConsumerGroupRefusedForItsTopicsTellsNoAuthorizedOperations() throws Exception {
        authorizer.create(List.of(new AclBinding(ResourceType.GROUP, "g", PatternType.LITERAL, "User:client", "*",
                AclOperation.DESCRIBE, AclPermissionType.ALLOW)));
        ConsumerGroupDescribeResponseView described = new ConsumerGroupDescribeResponseView(call(CLIENT,
                ApiKey.CONSUMER_GROUP_DESCRIBE, (short) 0, new ConsumerGroupDescribeRequestView()
                        .groupIds(List.of("g")).includeAuthorizedOperations(true).struct(), () -> {
                    ConsumerGroupDescribeResponseView group = new ConsumerGroupDescribeResponseView();
                    group.addGroup().groupId("g").addMember().memberId("m").assignment().addTopicPartition()
                            .topicName("closed");
                    return group.struct();
                }));
        assertThat(described.groups().get(0).errorCode()).isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        assertThat(described.groups().get(0).authorizedOperations()).isEqualTo(Integer.MIN_VALUE);
    }

    private static Struct leaderEpochRequest() {
        OffsetForLeaderEpochRequestView request = new OffsetForLeaderEpochRequestView().replicaId(2);
        request.addTopic().topic("closed").addPartition().partition(0);
        return request.struct();
    }

    @Test
    void offsetForLeaderEpochNeedsClusterActionOrDescribe() {
        OffsetForLeaderEpochResponseView refused = new OffsetForLeaderEpochResponseView(call(CLIENT,
                ApiKey.OFFSET_FOR_LEADER_EPOCH, (short) 4, leaderEpochRequest(),
                () -> new OffsetForLeaderEpochResponseView().struct()));
        assertThat(served).isEmpty();
        assertThat(refused.topics().get(0).partitions().get(0).errorCode())
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());
        call(BROKER, ApiKey.OFFSET_FOR_LEADER_EPOCH, (short) 4, leaderEpochRequest(),
                () -> new OffsetForLeaderEpochResponseView().struct());
        assertThat(new OffsetForLeaderEpochRequestView(served.get(0).body()).topics()).hasSize(1);
    }

    @Test
    void writeTxnMarkersNeedsClusterActionForEveryPartition() {
        WriteTxnMarkersRequestView request = new WriteTxnMarkersRequestView();
        request.addMarker().producerId(5L).addTopic().name("open").partitionIndexes(List.of(0, 1));
        WriteTxnMarkersResponseView refused = new WriteTxnMarkersResponseView(call(CLIENT, ApiKey.WRITE_TXN_MARKERS,
                (short) 1, request.struct(), () -> new WriteTxnMarkersResponseView().struct()));
        assertThat(served).isEmpty();
        assertThat(refused.markers().get(0).producerId()).isEqualTo(5L);
        assertThat(refused.markers().get(0).topics().get(0).partitions()).extracting(p -> p.errorCode())
                .containsOnly(Errors.CLUSTER_AUTHORIZATION_FAILED.code()).hasSize(2);
        call(BROKER, ApiKey.WRITE_TXN_MARKERS, (short) 1, request.struct(),
                () -> new WriteTxnMarkersResponseView().struct());
        assertThat(served).hasSize(1);
    }

    @Test
    void theShareCoordinatorsRequestsNeedClusterActionForEveryPartition() {
        UUID topicId = new UUID(1, 2);
        WriteShareGroupStateRequestView write = new WriteShareGroupStateRequestView().groupId("g");
        write.addTopic().topicId(topicId).addPartition().partition(3).startOffset(7);
        WriteShareGroupStateResponseView refused = new WriteShareGroupStateResponseView(call(CLIENT,
                ApiKey.WRITE_SHARE_GROUP_STATE, (short) 0, write.struct(),
                () -> new WriteShareGroupStateResponseView().struct()));
        assertThat(served).isEmpty();
        assertThat(refused.results().get(0).topicId()).isEqualTo(topicId);
        assertThat(refused.results().get(0).partitions()).extracting(p -> List.of(p.partition(), (int) p.errorCode()))
                .containsExactly(List.of(3, (int) Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
        ReadShareGroupStateRequestView read = new ReadShareGroupStateRequestView().groupId("g");
        read.addTopic().topicId(topicId).addPartition().partition(3);
        assertThat(new ReadShareGroupStateResponseView(call(CLIENT, ApiKey.READ_SHARE_GROUP_STATE, (short) 0,
                read.struct(), () -> new ReadShareGroupStateResponseView().struct())).results().get(0).partitions()
                .get(0).errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        DeleteShareGroupStateRequestView delete = new DeleteShareGroupStateRequestView().groupId("g");
        delete.addTopic().topicId(topicId).addPartition().partition(3);
        assertThat(new DeleteShareGroupStateResponseView(call(CLIENT, ApiKey.DELETE_SHARE_GROUP_STATE, (short) 0,
                delete.struct(), () -> new DeleteShareGroupStateResponseView().struct())).results().get(0)
                .partitions().get(0).errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(served).isEmpty();
        call(BROKER, ApiKey.WRITE_SHARE_GROUP_STATE, (short) 0, write.struct(),
                () -> new WriteShareGroupStateResponseView().struct());
        call(BROKER, ApiKey.READ_SHARE_GROUP_STATE, (short) 0, read.struct(),
                () -> new ReadShareGroupStateResponseView().struct());
        call(BROKER, ApiKey.DELETE_SHARE_GROUP_STATE, (short) 0, delete.struct(),
                () -> new DeleteShareGroupStateResponseView().struct());
        assertThat(served).hasSize(3);
    }

    @Test
    void initializingAndSummarizingShareStateNeedClusterActionForEveryPartition() {
        UUID topicId = new UUID(1, 2);
        InitializeShareGroupStateRequestView initialize = new InitializeShareGroupStateRequestView().groupId("g");
        initialize.addTopic().topicId(topicId).addPartition().partition(3).stateEpoch(1).startOffset(7);
        InitializeShareGroupStateResponseView refused = new InitializeShareGroupStateResponseView(call(CLIENT,
                ApiKey.INITIALIZE_SHARE_GROUP_STATE, (short) 0, initialize.struct(),
                () -> new InitializeShareGroupStateResponseView().struct()));
        assertThat(refused.results().get(0).topicId()).isEqualTo(topicId);
        assertThat(refused.results().get(0).partitions()).extracting(p -> List.of(p.partition(), (int) p.errorCode()))
                .containsExactly(List.of(3, (int) Errors.CLUSTER_AUTHORIZATION_FAILED.code()));
        ReadShareGroupStateSummaryRequestView summary = new ReadShareGroupStateSummaryRequestView().groupId("g");
        summary.addTopic().topicId(topicId).addPartition().partition(3);
        assertThat(new ReadShareGroupStateSummaryResponseView(call(CLIENT, ApiKey.READ_SHARE_GROUP_STATE_SUMMARY,
                (short) 1, summary.struct(), () -> new ReadShareGroupStateSummaryResponseView().struct())).results()
                .get(0).partitions().get(0).errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(served).isEmpty();
        call(BROKER, ApiKey.INITIALIZE_SHARE_GROUP_STATE, (short) 0, initialize.struct(),
                () -> new InitializeShareGroupStateResponseView().struct());
        call(BROKER, ApiKey.READ_SHARE_GROUP_STATE_SUMMARY, (short) 1, summary.struct(),
                () -> new ReadShareGroupStateSummaryResponseView().struct());
        assertThat(served).hasSize(2);
    }

    @Test
    void theBrokersVerificationOfTransactionsNeedsClusterAction() {
        AddPartitionsToTxnRequestView request = new AddPartitionsToTxnRequestView();
        request.addTransaction().transactionalId("tx").verifyOnly(true).addTopic().name("open")
                .partitions(List.of(0));
        AddPartitionsToTxnResponseView refused = new AddPartitionsToTxnResponseView(call(CLIENT,
                ApiKey.ADD_PARTITIONS_TO_TXN, (short) 4, request.struct(),
                () -> new AddPartitionsToTxnResponseView().struct()));
        assertThat(refused.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        call(BROKER, ApiKey.ADD_PARTITIONS_TO_TXN, (short) 4, request.struct(),
                () -> new AddPartitionsToTxnResponseView().struct());
        assertThat(served).hasSize(1);
    }

    @Test
    void controllerRequestsFromBrokersNeedClusterAction() {
        assertThat(new AlterPartitionResponseView(call(CLIENT, ApiKey.ALTER_PARTITION, (short) 3,
                ApiKey.ALTER_PARTITION.request().newMessage(), () -> new AlterPartitionResponseView().struct()))
                .errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(new BrokerHeartbeatResponseView(call(CLIENT, ApiKey.BROKER_HEARTBEAT, (short) 1,
                ApiKey.BROKER_HEARTBEAT.request().newMessage(), () -> new BrokerHeartbeatResponseView().struct()))
                .errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        assertThat(served).isEmpty();
        call(BROKER, ApiKey.BROKER_HEARTBEAT, (short) 1, ApiKey.BROKER_HEARTBEAT.request().newMessage(),
                () -> new BrokerHeartbeatResponseView().struct());
        assertThat(served).hasSize(1);
    }

    private static Struct produce(String transactionalId, short acks) {
        return produce(transactionalId, acks, Unpooled.EMPTY_BUFFER);
    }

    private static Struct produce(String transactionalId, short acks, ByteBuf records) {
        ProduceRequestView request = new ProduceRequestView().transactionalId(transactionalId).acks(acks)
                .timeoutMs(1000);
        request.addTopicData().name("open").addPartitionData().index(0).records(records);
        request.addTopicData().name("closed").addPartitionData().index(1).records(records);
        return request.struct();
    }

    private static ByteBuf transactionalBatch() {
        return new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 0).producer(5, (short) 0, 0)
                .transactional(true).append(0, null, new byte[1], List.of()).build();
    }

    @Test
    void produceIsServedForTheWritableTopicsAndRefusedForTheOthers() throws Exception {
        authorizer.create(List.of(new AclBinding(ResourceType.TOPIC, "open", PatternType.LITERAL, "User:client", "*",
                AclOperation.WRITE, AclPermissionType.ALLOW)));
        ProduceResponseView response = new ProduceResponseView(call(CLIENT, ApiKey.PRODUCE, (short) 9,
                produce(null, (short) -1), () -> {
                    ProduceResponseView served = new ProduceResponseView();
                    served.addResponse().name("open").addPartitionResponse().index(0).baseOffset(7L);
                    return served.struct();
                }));
        assertThat(new ProduceRequestView(served.get(0).body()).topicData()).extracting(t -> t.name())
                .containsExactly("open");
        assertThat(response.responses()).extracting(t -> t.name()).containsExactly("open", "closed");
        assertThat(response.responses().get(1).partitionResponses().get(0).errorCode())
                .isEqualTo(Errors.TOPIC_AUTHORIZATION_FAILED.code());

        ProduceResponseView transactional = new ProduceResponseView(call(CLIENT, ApiKey.PRODUCE, (short) 9,
                produce("tx", (short) -1, transactionalBatch()), () -> new ProduceResponseView().struct()));
        assertThat(served).as("no WRITE on the transactional id: nothing served").hasSize(1);
        assertThat(transactional.responses()).flatExtracting(t -> t.partitionResponses())
                .extracting(p -> p.errorCode()).containsOnly(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code());

        assertThatThrownBy(() -> call(CLIENT, ApiKey.PRODUCE, (short) 9, produce(null, (short) 0),
                () -> null)).as("acks=0: the open topic appended, then the connection closed")
                .hasRootCauseInstanceOf(CloseConnection.class);
        assertThat(new ProduceRequestView(served.get(1).body()).topicData()).extracting(t -> t.name())
                .containsExactly("open");

        // As Kafka, the id is only checked for transactional batches.
        call(CLIENT, ApiKey.PRODUCE, (short) 9, produce("tx", (short) -1), () -> new ProduceResponseView().struct());
        assertThat(served).as("no transactional batch: the id is not checked").hasSize(3);
    }
}
