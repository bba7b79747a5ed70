package io.minibroker.broker.authz;

import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.admin.CreateTopicsHandler;
import io.minibroker.broker.admin.DeleteTopicsHandler;
import io.minibroker.broker.admin.RuntimeLoggers;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.BrokerConfigOverrides;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsRequestView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.ElectLeadersRequestView;
import io.minibroker.protocol.message.view.ElectLeadersResponseView;
import io.minibroker.protocol.schema.Struct;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Where Kafka 4.3.1's ControllerApis puts its own checks of the topic changes among the ACLs' (read with javap and in
 * its source). A TimeoutMs of 0 or less: CreateTopics and CreatePartitions authorize first and time out whole
 * (refused topics too, REQUEST_TIMED_OUT, no message) once a topic the principal may change is left, else answer the
 * refusals; DeleteTopics looks names and ids up whatever the principal may delete, so it times out whole even with
 * every topic refused; ElectLeaders and AlterPartitionReassignments check ALTER on the cluster before the deadline.
 * Before the ACLs: a name (or id) given twice, answered INVALID_REQUEST by all three, a DeleteTopics entry with both
 * a name and an id, and {@code delete.topic.enable=false}, which refuses DeleteTopics whole.
 */
class TopicChangeChecksAndAclsTest {

    private static final KafkaPrincipal ALICE = KafkaPrincipal.user("alice");
    private static final BrokerConfigChanges BROKER_CONFIGS = BrokerConfigChanges.ofBroker(0,
            BrokerConfigOverrides.mirror(() -> { }), RuntimeLoggers.NONE);
    private static final short TIMED_OUT = Errors.REQUEST_TIMED_OUT.code();
    private static final short REFUSED = Errors.TOPIC_AUTHORIZATION_FAILED.code();
    private static final short INVALID = Errors.INVALID_REQUEST.code();

    @TempDir
    Path logDir;
    @TempDir
    Path aclDir;
    private TopicRegistry topics;
    private StandardAuthorizer authorizer;
    private ControllerMutationQuotas quotas;

    @BeforeEach
    void open() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("mine", 1, 1, Map.of(), false);
        topics.create("theirs", 1, 1, Map.of(), false);
        authorizer = StandardAuthorizer.open(aclDir, null, false);
        for (String topic : List.of("mine", "fresh")) {
            for (AclOperation operation : List.of(AclOperation.CREATE, AclOperation.ALTER, AclOperation.DELETE,
                    AclOperation.DESCRIBE)) {
                authorizer.create(List.of(new AclBinding(ResourceType.TOPIC, topic, PatternType.LITERAL,
                        "User:alice", "*", operation, AclPermissionType.ALLOW)));
            }
        }
        quotas = new ControllerMutationQuotas(ClientQuotas.mirror(), () -> 0, 11, 1);
    }

    @AfterEach
    void close() throws IOException {
        topics.close();
    }

    @Test
    void createTopicsWithATopicItMayCreateTimesOutWhole() {
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(0);
        request.addTopic().name("denied").numPartitions(1).replicationFactor((short) 1);
        request.addTopic().name("fresh").numPartitions(1).replicationFactor((short) 1);

        assertThat(createTopics(request)).as("the refused topic too, as CreateTopicsRequest.getErrorResponse")
                .containsExactlyInAnyOrder(tuple("denied", TIMED_OUT, null), tuple("fresh", TIMED_OUT, null));
        assertThat(topics.get("fresh")).isEmpty();
    }

    @Test
    void createTopicsWithEveryTopicRefusedIsAnsweredTheRefusals() {
        CreateTopicsRequestView request = new CreateTopicsRequestView().timeoutMs(0);
        request.addTopic().name("denied").numPartitions(1).replicationFactor((short) 1);

        assertThat(createTopics(request)).containsExactly(tuple("denied", REFUSED, "Authorization failed."));
    }

    @Test
    void createPartitionsWithATopicItMayAlterTimesOutWhole() {
        CreatePartitionsRequestView request = new CreatePartitionsRequestView().timeoutMs(0);
        request.addTopic().name("theirs").count(2).assignments(null);
        request.addTopic().name("mine").count(2).assignments(null);
        assertThat(createPartitions(request)).containsExactlyInAnyOrder(tuple("theirs", TIMED_OUT),
                tuple("mine", TIMED_OUT));
        assertThat(topics.get("mine").map(TopicMetadata::partitions)).contains(1);

        CreatePartitionsRequestView refusedOnly = new CreatePartitionsRequestView().timeoutMs(0);
        refusedOnly.addTopic().name("theirs").count(2).assignments(null);
        assertThat(createPartitions(refusedOnly)).containsExactly(tuple("theirs", REFUSED));
    }

    @Test
    void deleteTopicsTimesOutWholeWhateverItMayDelete() {
        DeleteTopicsRequestView refusedOnly = new DeleteTopicsRequestView().timeoutMs(0)
                .topicNames(List.of("theirs"));
        assertThat(deleteTopics((short) 5, refusedOnly)).as("the names are looked up whatever the ACLs say")
                .containsExactly(tuple("theirs", TIMED_OUT, null));

        DeleteTopicsRequestView byId = new DeleteTopicsRequestView().timeoutMs(0);
        byId.addTopic().name(null).topicId(topics.get("theirs").orElseThrow().id());
        byId.addTopic().name("mine").topicId(new java.util.UUID(0, 0));
        assertThat(deleteTopics((short) 6, byId)).extracting(tuple -> tuple.toList().get(1))
                .containsExactly(TIMED_OUT, TIMED_OUT);
        assertThat(topics.get("theirs")).isPresent();
        assertThat(topics.get("mine")).isPresent();
    }

    @Test
    void aRepeatedNameIsAnsweredInvalidRequestBeforeTheAcls() {
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(60_000);
        create.addTopic().name("denied").numPartitions(1).replicationFactor((short) 1);
        create.addTopic().name("denied").numPartitions(1).replicationFactor((short) 1);
        create.addTopic().name("fresh").numPartitions(1).replicationFactor((short) 1);
        assertThat(createTopics(create)).containsExactlyInAnyOrder(
                tuple("denied", INVALID, "Duplicate topic name."), tuple("fresh", Errors.NONE.code(), null));

        CreatePartitionsRequestView add = new CreatePartitionsRequestView().timeoutMs(60_000);
        add.addTopic().name("theirs").count(2).assignments(null);
        add.addTopic().name("theirs").count(2).assignments(null);
        assertThat(createPartitions(add)).containsExactly(tuple("theirs", INVALID));

        DeleteTopicsRequestView byName = new DeleteTopicsRequestView().timeoutMs(60_000)
                .topicNames(List.of("theirs", "theirs"));
        assertThat(deleteTopics((short) 5, byName)).containsExactly(tuple("theirs", INVALID, "Duplicate topic name."));

        java.util.UUID theirs = topics.get("theirs").orElseThrow().id();
        DeleteTopicsRequestView byId = new DeleteTopicsRequestView().timeoutMs(60_000);
        byId.addTopic().name(null).topicId(theirs);
        byId.addTopic().name(null).topicId(theirs);
        byId.addTopic().name("theirs").topicId(theirs);
        assertThat(deleteTopics((short) 6, byId)).containsExactlyInAnyOrder(
                tuple(null, INVALID, "Duplicate topic id."),
                tuple("theirs", INVALID, "You may not specify both topic name and topic id."));
        assertThat(topics.get("theirs")).isPresent();
    }

    /**
     * A name given on its own beside an entry with that name and an id is not a repeated name (Kafka's controller
     * counts the names given alone): its topic is still authorized, and a principal who may not delete it cannot.
     */
    @Test
    void aNameAlsoInAnEntryWithAnIdIsStillAuthorized() {
        DeleteTopicsRequestView request = new DeleteTopicsRequestView().timeoutMs(60_000);
        request.addTopic().name("theirs").topicId(new java.util.UUID(0, 0));
        request.addTopic().name("theirs").topicId(java.util.UUID.randomUUID());
        assertThat(deleteTopics((short) 6, request)).containsExactlyInAnyOrder(
                tuple("theirs", INVALID, "You may not specify both topic name and topic id."),
                tuple("theirs", REFUSED, "Topic authorization failed."));
        assertThat(topics.get("theirs")).as("not deleted").isPresent();
    }

    @Test
    void deletionDisabledRefusesTheWholeRequestBeforeTheAcls() {
        DeleteTopicsRequestView request = new DeleteTopicsRequestView().timeoutMs(60_000)
                .topicNames(List.of("theirs", "mine"));
        short disabled = Errors.TOPIC_DELETION_DISABLED.code();
        assertThat(deleteTopics((short) 5, request, false)).extracting(tuple -> tuple.toList().get(1))
                .containsExactly(disabled, disabled);
        assertThat(deleteTopics((short) 2, request, false)).extracting(tuple -> tuple.toList().get(1))
                .as("before v3, which has no such error").containsExactly(INVALID, INVALID);
    }

    @Test
    void electLeadersAndReassignmentsCheckTheClusterBeforeTheDeadline() {
        ApiHandler unreachable = (context, request) -> {
            throw new AssertionError("served despite the refusal");
        };
        ElectLeadersRequestView elect = new ElectLeadersRequestView().timeoutMs(0);
        elect.addTopicPartition().topic("mine").partitions(List.of(0));
        ElectLeadersResponseView elected = new ElectLeadersResponseView(call(AuthorizingHandler.wrap(
                ApiKey.ELECT_LEADERS, unreachable, authorizer, facts(), BROKER_CONFIGS), ApiKey.ELECT_LEADERS,
                (short) 2, elect.struct()));
        assertThat(elected.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());

        AlterPartitionReassignmentsRequestView alter = new AlterPartitionReassignmentsRequestView().timeoutMs(0);
        alter.addTopic().name("mine").addPartition().partitionIndex(0).replicas(List.of(0));
        AlterPartitionReassignmentsResponseView altered = new AlterPartitionReassignmentsResponseView(call(
                AuthorizingHandler.wrap(ApiKey.ALTER_PARTITION_REASSIGNMENTS, unreachable, authorizer, facts(),
                        BROKER_CONFIGS),
                ApiKey.ALTER_PARTITION_REASSIGNMENTS, (short) 0, alter.struct()));
        assertThat(altered.errorCode()).isEqualTo(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
    }

    private List<Tuple> createTopics(CreateTopicsRequestView body) {
        LocalNode node = new LocalNode(0, "cluster", List::of, null);
        ApiHandler handler = secured(ApiKey.CREATE_TOPICS, new CreateTopicsHandler(topics, node,
                BrokerConfig.of(Map.of("log.dir", logDir.toString())), quotas));
        return new CreateTopicsResponseView(call(handler, ApiKey.CREATE_TOPICS, (short) 7, body.struct())).topics()
                .stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }

    private List<Tuple> createPartitions(CreatePartitionsRequestView body) {
        LocalNode node = new LocalNode(0, "cluster", List::of, null);
        ApiHandler handler = secured(ApiKey.CREATE_PARTITIONS, new CreatePartitionsHandler(topics, node, quotas));
        return new CreatePartitionsResponseView(call(handler, ApiKey.CREATE_PARTITIONS, (short) 3, body.struct()))
                .results().stream().map(r -> tuple(r.name(), r.errorCode())).toList();
    }

    private List<Tuple> deleteTopics(short version, DeleteTopicsRequestView body) {
        return deleteTopics(version, body, true);
    }

    private List<Tuple> deleteTopics(short version, DeleteTopicsRequestView body, boolean deleteEnabled) {
        ApiHandler handler = AuthorizingHandler.wrap(ApiKey.DELETE_TOPICS,
                new DeleteTopicsHandler(topics, deleteEnabled, quotas), authorizer, facts(deleteEnabled),
                BROKER_CONFIGS);
        return new DeleteTopicsResponseView(call(handler, ApiKey.DELETE_TOPICS, version, body.struct())).responses()
                .stream().map(r -> tuple(r.name(), r.errorCode(), r.errorMessage())).toList();
    }

    private ApiHandler secured(ApiKey api, ApiHandler handler) {
        return AuthorizingHandler.wrap(api, handler, authorizer, facts(), BROKER_CONFIGS);
    }

    private TopicFacts facts() {
        return facts(true);
    }

    private TopicFacts facts(boolean deleteEnabled) {
        return new TopicFacts(id -> topics.all().stream().filter(t -> t.id().equals(id)).map(TopicMetadata::name)
                .findFirst(), name -> topics.get(name).map(TopicMetadata::id),
                (name, partition) -> topics.get(name).isPresent(), false, deleteEnabled);
    }

    private static Struct call(ApiHandler handler, ApiKey api, short version, Struct body) {
        Request request = new Request(new RequestHeader(api.id(), version, 1, "test"), api, body);
        return handler.handle(TestContexts.withTlsPrincipal("SSL", new InetSocketAddress("127.0.0.1", 5555), ALICE),
                request).toCompletableFuture().join();
    }
}
