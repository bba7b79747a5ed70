package io.minibroker.broker.authz;

import io.minibroker.broker.admin.BrokerConfigChanges;
import io.minibroker.broker.admin.ConfigResources;
import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.admin.CreateTopicsHandler;
import io.minibroker.broker.admin.DeleteTopicsHandler;
import io.minibroker.broker.admin.DescribeConfigsHandler;
import io.minibroker.broker.admin.PastDeadline;
import io.minibroker.broker.admin.Repeated;
import io.minibroker.broker.admin.AlterClientQuotasHandler;
import io.minibroker.broker.admin.AlterConfigsRequest;
import io.minibroker.broker.topic.ConfigurableTopics.Change;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AlterConfigsRequestView;
import io.minibroker.protocol.message.view.AlterConfigsResponseView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsRequestView;
import io.minibroker.protocol.message.view.AlterPartitionReassignmentsResponseView;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsRequestView;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsResponseView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.AlterUserScramCredentialsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopic;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView;
import io.minibroker.protocol.message.view.DeleteTopicsRequestView.DeleteTopicState;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.DescribeClusterRequestView;
import io.minibroker.protocol.message.view.DescribeConfigsRequestView;
import io.minibroker.protocol.message.view.DescribeConfigsResponseView;
import io.minibroker.protocol.message.view.DescribeLogDirsResponseView;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsRequestView;
import io.minibroker.protocol.message.view.DescribeUserScramCredentialsResponseView;
import io.minibroker.protocol.message.view.ElectLeadersRequestView;
import io.minibroker.protocol.message.view.ElectLeadersResponseView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsRequestView;
import io.minibroker.protocol.message.view.ListPartitionReassignmentsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The checks of the admin APIs, as Kafka's KafkaApis, ControllerApis and ConfigHelper make them: CreateTopics needs
 * CREATE on the cluster or the topic (and DESCRIBE_CONFIGS on the topic to see its configs), DeleteTopics DELETE,
 * CreatePartitions ALTER on the topic; the config APIs DESCRIBE_CONFIGS or ALTER_CONFIGS on the topic, the group, or
 * the cluster for a broker, broker logger or client metrics resource; DescribeLogDirs DESCRIBE and ElectLeaders ALTER
 * on the cluster; DescribeClientQuotas DESCRIBE_CONFIGS on the cluster; the SCRAM credential APIs DESCRIBE and ALTER on
 * the cluster; AlterPartitionReassignments ALTER and ListPartitionReassignments DESCRIBE on the cluster; the brokers' own requests to the controller CLUSTER_ACTION.
 */
final class AdminApiChecks {

    private static final short CREATE_TOPICS_CONFIGS_FROM_VERSION = 5;
    private static final short DELETE_TOPICS_BY_ID_FROM_VERSION = 6;
    private static final short LOG_DIRS_ERROR_FROM_VERSION = 3;
    private static final short ELECT_LEADERS_ERROR_FROM_VERSION = 1;
    /** The config resources Kafka authorizes on the cluster. */
    private static final Set<Byte> CLUSTER_RESOURCES = Set.of(ConfigResources.BROKER, ConfigResources.BROKER_LOGGER,
            ConfigResources.CLIENT_METRICS);

    private final TopicFacts topics;
    /** What the BROKER and BROKER_LOGGER resources are answered before they are authorized. */
    private final BrokerConfigChanges brokerConfigs;

    AdminApiChecks(TopicFacts topics, BrokerConfigChanges brokerConfigs) {
        this.topics = topics;
        this.brokerConfigs = brokerConfigs;
    }

    private static boolean topicAllowed(Access access, AclOperation operation, String topic) {
        return access.allowed(operation, ResourceType.TOPIC, topic);
    }

    /**
     * CREATE on the cluster or on each topic (else TOPIC_AUTHORIZATION_FAILED, "Authorization failed."); a created
     * topic's configs are answered only with DESCRIBE_CONFIGS on it, else its config error is
     * TOPIC_AUTHORIZATION_FAILED. A name given twice is the handler's (INVALID_REQUEST): Kafka's controller sets
     * repeated names aside before it authorizes.
     */
    CompletionStage<Struct> createTopics(Access access) {
        Request request = access.request();
        CreateTopicsRequestView body = new CreateTopicsRequestView(request.body());
        boolean cluster = access.allowedOnCluster(AclOperation.CREATE);
        Set<String> repeated = Repeated.keys(body.topics(), CreatableTopic::name);
        Function<CreatableTopic, Errors> refusal = topic -> cluster || repeated.contains(topic.name())
                || topicAllowed(access, AclOperation.CREATE, topic.name()) ? null : Errors.TOPIC_AUTHORIZATION_FAILED;
        if (PastDeadline.at(body.timeoutMs())
                && CreateTopicsHandler.leavesAnyToCreate(allowed(body.topics(), refusal))) {
            return access.serve(); // answered whole REQUEST_TIMED_OUT, as Kafka's controller after the ACLs
        }
        return access.serveAllowed(body.topics(), refusal, body::topics, (answer, refused) ->
                        new CreateTopicsResponseView(answer).addTopic().name(refused.item().name())
                                .errorCode(refused.error().code()).errorMessage("Authorization failed.")
                                .numPartitions(-1).replicationFactor((short) -1))
                .thenApply(answer -> {
                    if (answer != null && request.version() >= CREATE_TOPICS_CONFIGS_FROM_VERSION) {
                        new CreateTopicsResponseView(answer).topics().stream()
                                .filter(t -> t.errorCode() == Errors.NONE.code()
                                        && !topicAllowed(access, AclOperation.DESCRIBE_CONFIGS, t.name()))
                                .forEach(t -> t.topicConfigErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                        .configs(null));
                    }
                    return answer;
                });
    }

    /**
     * DELETE on the cluster or each topic. Named, a topic the principal may not delete is answered
     * TOPIC_AUTHORIZATION_FAILED, unless it may describe it and it does not exist (then the handler answers
     * UNKNOWN_TOPIC_OR_PARTITION); by id, an unknown id is the handler's to answer, a refused one gets its name only
     * if the principal may describe it. Past its deadline the request is the handler's whole: Kafka's controller
     * looks the ids up before it authorizes and the names whatever it authorized, so a request with anything to look
     * up times out whole, and one with nothing is answered the checks Kafka makes before the ACLs. Those checks
     * ({@link DeleteTopicsHandler#answeredBeforeAuthorization}: {@code delete.topic.enable=false}, a name or id given
     * twice, an entry with both or neither) are the handler's to answer whatever the ACLs.
     */
    CompletionStage<Struct> deleteTopics(Access access) {
        Request request = access.request();
        DeleteTopicsRequestView body = new DeleteTopicsRequestView(request.body());
        boolean cluster = access.allowedOnCluster(AclOperation.DELETE);
        if (cluster || PastDeadline.at(body.timeoutMs())) {
            return access.serve();
        }
        Set<Integer> answeredFirst = DeleteTopicsHandler.answeredBeforeAuthorization(request.version(), body,
                topics.deleteEnabled());
        Function<String, Errors> byName = name -> topicAllowed(access, AclOperation.DELETE, name)
                || (topicAllowed(access, AclOperation.DESCRIBE, name) && !topics.exists(name))
                ? null : Errors.TOPIC_AUTHORIZATION_FAILED;
        if (request.version() < DELETE_TOPICS_BY_ID_FROM_VERSION) {
            // A name answered first is so at every index it has: the names say it.
            Set<String> namesFirst = new HashSet<>();
            answeredFirst.forEach(index -> namesFirst.add(body.topicNames().get(index)));
            return access.serveAllowed(body.topicNames(), name -> namesFirst.contains(name) ? null
                    : byName.apply(name), body::topicNames, (answer, refused) ->
                    new DeleteTopicsResponseView(answer).addResponse().name(refused.item())
                            .errorCode(refused.error().code()).errorMessage(Access.message(refused.error())));
        }
        Set<Struct> entriesFirst = at(body.topics(), DeleteTopicState::struct, answeredFirst);
        return access.serveAllowed(body.topics(), topic -> {
            if (entriesFirst.contains(topic.struct())) {
                return null;
            }
            if (topic.name() != null) {
                return byName.apply(topic.name());
            }
            Optional<String> name = topics.nameOf(topic.topicId());
            return name.isEmpty() || topicAllowed(access, AclOperation.DELETE, name.get()) ? null
                    : Errors.TOPIC_AUTHORIZATION_FAILED;
        }, body::topics, (answer, refused) -> {
            String name = refused.item().name() != null ? refused.item().name()
                    : topics.nameOf(refused.item().topicId())
                    .filter(n -> topicAllowed(access, AclOperation.DESCRIBE, n)).orElse(null);
            new DeleteTopicsResponseView(answer).addResponse().name(name).topicId(refused.item().topicId())
                    .errorCode(refused.error().code()).errorMessage(Access.message(refused.error()));
        });
    }

    /**
     * ALTER on each topic. Past its deadline, a request that leaves a topic the principal may alter is answered whole
     * REQUEST_TIMED_OUT, refused topics too, as Kafka's controller times it out after the ACLs. A name given twice is
     * the handler's (INVALID_REQUEST), which Kafka's controller answers before it authorizes.
     */
    CompletionStage<Struct> createPartitions(Access access) {
        CreatePartitionsRequestView body = new CreatePartitionsRequestView(access.request().body());
        Set<String> repeated = Repeated.keys(body.topics(), CreatePartitionsTopic::name);
        Function<CreatePartitionsTopic, Errors> refusal = topic -> repeated.contains(topic.name()) ? null
                : access.topicRefusal(AclOperation.ALTER, topic.name());
        if (PastDeadline.at(body.timeoutMs())
                && CreatePartitionsHandler.leavesAnyToAddTo(allowed(body.topics(), refusal))) {
            return access.serve();
        }
        return access.serveAllowed(body.topics(), refusal, body::topics, (answer, refused) ->
                new CreatePartitionsResponseView(answer).addResult().name(refused.item().name())
                        .errorCode(refused.error().code()));
    }

    /**
     * The structs of the items at these indexes, by identity: a view is made anew at each look-up, the request's
     * struct it reads is the same.
     */
    private static <T> Set<Struct> at(List<T> items, Function<T, Struct> struct, Set<Integer> indexes) {
        Set<Struct> found = Collections.newSetFromMap(new IdentityHashMap<>());
        indexes.forEach(index -> found.add(struct.apply(items.get(index))));
        return found;
    }

    private static <T> List<T> allowed(List<T> items, Function<T, Errors> refusal) {
        return items.stream().filter(item -> refusal.apply(item) == null).toList();
    }

    /** The refusal of one config resource for {@code operation}, or null; an unknown type is the handler's. */
    private static Errors configRefusal(Access access, AclOperation operation, byte type, String name) {
        if (type == ConfigResources.TOPIC) {
            return access.topicRefusal(operation, name);
        }
        if (type == ConfigResources.GROUP) {
            return access.allowed(operation, ResourceType.GROUP, name) ? null : Errors.GROUP_AUTHORIZATION_FAILED;
        }
        if (CLUSTER_RESOURCES.contains(type)) {
            return access.allowedOnCluster(operation) ? null : Errors.CLUSTER_AUTHORIZATION_FAILED;
        }
        return null;
    }

    /**
     * DESCRIBE_CONFIGS on each resource; a request naming a resource type Kafka does not know is the handler's whole
     * ({@link DescribeConfigsHandler#refusedWhole}), as Kafka refuses it whole while it authorizes.
     */
    CompletionStage<Struct> describeConfigs(Access access) {
        DescribeConfigsRequestView body = new DescribeConfigsRequestView(access.request().body());
        if (DescribeConfigsHandler.refusedWhole(body)) {
            return access.serve();
        }
        return access.serveAllowed(body.resources(), r -> configRefusal(access, AclOperation.DESCRIBE_CONFIGS,
                r.resourceType(), r.resourceName()), body::resources, (answer, refused) ->
                new DescribeConfigsResponseView(answer).addResult().resourceType(refused.item().resourceType())
                        .resourceName(refused.item().resourceName()).errorCode(refused.error().code())
                        .errorMessage(Access.message(refused.error())));
    }

    /** ALTER_CONFIGS on each resource, but for what Kafka answers before it authorizes (below). */
    CompletionStage<Struct> alterConfigs(Access access) {
        AlterConfigsRequestView body = new AlterConfigsRequestView(access.request().body());
        return alterConfigs(access, ApiKey.ALTER_CONFIGS, body.resources(),
                AlterConfigsRequestView.AlterConfigsResource::struct,
                r -> configRefusal(access, AclOperation.ALTER_CONFIGS, r.resourceType(), r.resourceName()),
                body::resources, Access.Placement.inRequestOrder(b -> new AlterConfigsResponseView(b).responses(),
                        (b, placed) -> new AlterConfigsResponseView(b).responses(placed)),
                (answer, r, error, message) -> new AlterConfigsResponseView(answer).addResponse()
                        .resourceType(r.resourceType()).resourceName(r.resourceName()).errorCode(error.code())
                        .errorMessage(message));
    }

    /** As {@link #alterConfigs(Access)}. */
    CompletionStage<Struct> incrementalAlterConfigs(Access access) {
        IncrementalAlterConfigsRequestView body = new IncrementalAlterConfigsRequestView(access.request().body());
        return alterConfigs(access, ApiKey.INCREMENTAL_ALTER_CONFIGS, body.resources(),
                IncrementalAlterConfigsRequestView.AlterConfigsResource::struct,
                r -> configRefusal(access, AclOperation.ALTER_CONFIGS, r.resourceType(), r.resourceName()),
                body::resources, Access.Placement.inRequestOrder(
                        b -> new IncrementalAlterConfigsResponseView(b).responses(),
                        (b, placed) -> new IncrementalAlterConfigsResponseView(b).responses(placed)),
                (answer, r, error, message) -> new IncrementalAlterConfigsResponseView(answer).addResponse()
                        .resourceType(r.resourceType()).resourceName(r.resourceName()).errorCode(error.code())
                        .errorMessage(message));
    }

    /** Adds the answer to one refused resource of either AlterConfigs shape. */
    @FunctionalInterface
    private interface ResourceAnswer<R> {
        void add(Struct answer, R resource, Errors error, String message);
    }

    /**
     * A resource the principal may not alter is answered what Kafka answers it before it authorizes it, if anything
     * ({@link AlterConfigsRequest#refusalsBeforeAuthorization}: the request's own checks, and a BROKER resource's
     * preprocessing, which Kafka's brokers do before their controller authorizes), else the authorization error;
     * each at its place in the request, as Kafka's broker reassembles the answer. Answered here, not left to the
     * handler, so that a check whose outcome depends on the stored configs is never passed to the handler unauthorized.
     */
    private <R, E> CompletionStage<Struct> alterConfigs(Access access, ApiKey api, List<R> resources,
                                                        Function<R, Struct> struct, Function<R, Errors> authorization,
                                                        Consumer<List<R>> keep, Access.Placement<E> placement,
                                                        ResourceAnswer<R> answer) {
        List<Change> before = AlterConfigsRequest.refusalsBeforeAuthorization(api, access.request().body(),
                brokerConfigs);
        Map<Struct, Change> beforeByResource = new IdentityHashMap<>();
        for (int i = 0; i < resources.size(); i++) {
            if (before.get(i) != null) {
                beforeByResource.put(struct.apply(resources.get(i)), before.get(i));
            }
        }
        return access.serveAllowed(resources, r -> {
            Errors refused = authorization.apply(r);
            Change first = beforeByResource.get(struct.apply(r));
            return refused == null || first == null ? refused : first.error();
        }, keep, (body, refused) -> {
            Change first = beforeByResource.get(struct.apply(refused.item()));
            answer.add(body, refused.item(), refused.error(),
                    first != null ? first.message() : Access.message(refused.error()));
        }, false, placement);
    }

    /** DESCRIBE on the cluster, else no log dirs (and CLUSTER_AUTHORIZATION_FAILED from v3, which carries it). */
    CompletionStage<Struct> describeLogDirs(Access access) {
        if (access.allowedOnCluster(AclOperation.DESCRIBE)) {
            return access.serve();
        }
        DescribeLogDirsResponseView response = new DescribeLogDirsResponseView();
        if (access.request().version() >= LOG_DIRS_ERROR_FROM_VERSION) {
            response.errorCode(Errors.CLUSTER_AUTHORIZATION_FAILED.code());
        }
        return Access.answer(response.struct());
    }

    /**
     * ALTER on the cluster, else every partition is answered CLUSTER_AUTHORIZATION_FAILED as Kafka's
     * AlterReplicaLogDirsRequest.getErrorResponse lists them: per directory entry, per topic, each partition as asked
     * (a partition named twice is answered twice, where the served request answers it once).
     */
    static CompletionStage<Struct> alterReplicaLogDirs(Access access) {
        if (access.allowedOnCluster(AclOperation.ALTER)) {
            return access.serve();
        }
        short error = Errors.CLUSTER_AUTHORIZATION_FAILED.code();
        AlterReplicaLogDirsResponseView response = new AlterReplicaLogDirsResponseView();
        for (AlterReplicaLogDirsRequestView.AlterReplicaLogDir dir
                : new AlterReplicaLogDirsRequestView(access.request().body()).dirs()) {
            dir.topics().forEach(topic -> {
                AlterReplicaLogDirsResponseView.AlterReplicaLogDirTopicResult result = response.addResult()
                        .topicName(topic.name());
                topic.partitions().forEach(partition -> result.addPartition().partitionIndex(partition)
                        .errorCode(error));
            });
        }
        return Access.answer(response.struct());
    }

    /** ALTER on the cluster, else every partition asked for is answered CLUSTER_AUTHORIZATION_FAILED. */
    CompletionStage<Struct> electLeaders(Access access) {
        if (access.allowedOnCluster(AclOperation.ALTER)) {
            return access.serve();
        }
        Errors error = Errors.CLUSTER_AUTHORIZATION_FAILED;
        ElectLeadersRequestView body = new ElectLeadersRequestView(access.request().body());
        ElectLeadersResponseView response = new ElectLeadersResponseView();
        if (access.request().version() >= ELECT_LEADERS_ERROR_FROM_VERSION) {
            response.errorCode(error.code());
        }
        if (body.topicPartitions() != null) {
            body.topicPartitions().forEach(topic -> {
                ElectLeadersResponseView.ReplicaElectionResult result = response.addReplicaElectionResult()
                        .topic(topic.topic());
                topic.partitions().forEach(p -> result.addPartitionResult().partitionId(p).errorCode(error.code())
                        .errorMessage(Access.message(error)));
            });
        }
        return Access.answer(response.struct());
    }

    /**
     * ALTER on the cluster, else the whole request refused in Kafka's {@code getErrorResponse} shape:
     * CLUSTER_AUTHORIZATION_FAILED and its message at the top and on every partition named.
     */
    CompletionStage<Struct> alterPartitionReassignments(Access access) {
        if (access.allowedOnCluster(AclOperation.ALTER)) {
            return access.serve();
        }
        Errors error = Errors.CLUSTER_AUTHORIZATION_FAILED;
        AlterPartitionReassignmentsRequestView body = new AlterPartitionReassignmentsRequestView(access.request().body());
        AlterPartitionReassignmentsResponseView response = new AlterPartitionReassignmentsResponseView()
                .errorCode(error.code()).errorMessage(Access.message(error));
        body.topics().forEach(topic -> {
            AlterPartitionReassignmentsResponseView.ReassignableTopicResponse answer = response.addResponse()
                    .name(topic.name());
            topic.partitions().forEach(p -> answer.addPartition().partitionIndex(p.partitionIndex())
                    .errorCode(error.code()).errorMessage(Access.message(error)));
        });
        return Access.answer(response.struct());
    }

    /**
     * DESCRIBE on the cluster, else the whole request refused in Kafka's {@code getErrorResponse} shape:
     * CLUSTER_AUTHORIZATION_FAILED and its message at the top, every partition named listed with empty replica sets.
     */
    CompletionStage<Struct> listPartitionReassignments(Access access) {
        if (access.allowedOnCluster(AclOperation.DESCRIBE)) {
            return access.serve();
        }
        Errors error = Errors.CLUSTER_AUTHORIZATION_FAILED;
        ListPartitionReassignmentsRequestView body = new ListPartitionReassignmentsRequestView(access.request().body());
        ListPartitionReassignmentsResponseView response = new ListPartitionReassignmentsResponseView()
                .errorCode(error.code()).errorMessage(Access.message(error));
        if (body.topics() != null) {
            body.topics().forEach(topic -> {
                ListPartitionReassignmentsResponseView.OngoingTopicReassignment answer = response.addTopic()
                        .name(topic.name());
                topic.partitionIndexes().forEach(p -> answer.addPartition().partitionIndex(p));
            });
        }
        return Access.answer(response.struct());
    }

    /** ALTER on the cluster, else every user named is answered CLUSTER_AUTHORIZATION_FAILED. */
    CompletionStage<Struct> alterUserScramCredentials(Access access) {
        if (access.allowedOnCluster(AclOperation.ALTER)) {
            return access.serve();
        }
        AlterUserScramCredentialsRequestView body = new AlterUserScramCredentialsRequestView(access.request().body());
        Set<String> users = new LinkedHashSet<>();
        Stream.concat(body.deletions().stream().map(d -> d.name()), body.upsertions().stream().map(u -> u.name()))
                .forEach(users::add);
        AlterUserScramCredentialsResponseView response = new AlterUserScramCredentialsResponseView();
        Errors error = Errors.CLUSTER_AUTHORIZATION_FAILED;
        users.forEach(user -> response.addResult().user(user).errorCode(error.code())
                .errorMessage(Access.message(error)));
        return Access.answer(response.struct());
    }

    /** AlterClientQuotas needs ALTER_CONFIGS on the cluster; refused, every entry is told so, as in Kafka. */
    static CompletionStage<Struct> alterClientQuotas(Access access) {
        if (access.allowedOnCluster(AclOperation.ALTER_CONFIGS)) {
            return access.serve();
        }
        Errors error = Errors.CLUSTER_AUTHORIZATION_FAILED;
        return Access.answer(AlterClientQuotasHandler.refusal(access.request(), error, Access.message(error)));
    }

    /** DescribeCluster needs no right, as in Kafka; the cluster's authorized operations are added when asked for. */
    CompletionStage<Struct> describeCluster(Access access) {
        if (!new DescribeClusterRequestView(access.request().body()).includeClusterAuthorizedOperations()) {
            return access.serve();
        }
        return access.serveFiltered(access::fillAuthorizedOperations);
    }

    /** An API answered with a top-level error code that needs {@code operation} on the cluster. */
    /**
     * DESCRIBE on the cluster, else Kafka's error response: the error at the top and once for each user named (the
     * user left empty), without a message (Kafka's ApiError drops the error's default one).
     */
    static CompletionStage<Struct> describeUserScramCredentials(Access access) {
        if (access.allowedOnCluster(AclOperation.DESCRIBE)) {
            return access.serve();
        }
        short error = Errors.CLUSTER_AUTHORIZATION_FAILED.code();
        DescribeUserScramCredentialsResponseView response = new DescribeUserScramCredentialsResponseView()
                .errorCode(error);
        List<DescribeUserScramCredentialsRequestView.UserName> users =
                new DescribeUserScramCredentialsRequestView(access.request().body()).users();
        if (users != null) {
            users.forEach(user -> response.addResult().errorCode(error));
        }
        return Access.answer(response.struct());
    }

    /**
     * AddRaftVoter and RemoveRaftVoter: ALTER on the cluster, as Kafka's ControllerApis asks, whose refusal carries
     * the error's message (Kafka's getErrorResponse of both sets it).
     */
    static CompletionStage<Struct> raftVoterChange(Access access) {
        return access.allowedOnCluster(AclOperation.ALTER) ? access.serve()
                : access.refuseWithMessage(Errors.CLUSTER_AUTHORIZATION_FAILED);
    }

    static CompletionStage<Struct> onCluster(Access access, AclOperation operation) {
        return access.allowedOnCluster(operation) ? access.serve()
                : access.refuse(Errors.CLUSTER_AUTHORIZATION_FAILED);
    }
}
