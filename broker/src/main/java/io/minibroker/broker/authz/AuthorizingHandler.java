package io.minibroker.broker.authz;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FindCoordinatorRequestView;
import io.minibroker.protocol.message.view.FindCoordinatorResponseView;
import io.minibroker.protocol.message.view.HeartbeatRequestView;
import io.minibroker.protocol.message.view.HeartbeatResponseView;
import io.minibroker.protocol.message.view.InitProducerIdResponseView;
import io.minibroker.protocol.message.view.JoinGroupRequestView;
import io.minibroker.protocol.message.view.JoinGroupResponseView;
import io.minibroker.protocol.message.view.LeaveGroupRequestView;
import io.minibroker.protocol.message.view.LeaveGroupResponseView;
import io.minibroker.protocol.message.view.SyncGroupRequestView;
import io.minibroker.protocol.message.view.SyncGroupResponseView;
import io.minibroker.protocol.message.view.InitProducerIdRequestView;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The authorization step in front of every API's handler, keyed by API, as Kafka's request handlers check:
 * Produce needs WRITE on each topic (unauthorized topics are taken out of the request and answered
 * TOPIC_AUTHORIZATION_FAILED) and WRITE on its transactional id; Metadata answers only topics the principal may
 * DESCRIBE (hiding the others from an all-topics request) and auto-creates only with CREATE; InitProducerId needs
 * WRITE on the transactional id, or for an idempotent producer IDEMPOTENT_WRITE on the cluster or WRITE on some
 * topic; FindCoordinator needs DESCRIBE on the group or transactional id, the classic group membership APIs READ
 * on the group. The APIs that need no authorization (ApiVersions, SASL) pass, the ACL APIs check for themselves.
 *
 * <p>Every other API is not yet checked resource by resource; rather than serve it less securely than configured,
 * it is served to super users only and closes the connection of anyone else (Kafka would answer an authorization
 * error instead).
 */
public final class AuthorizingHandler implements ApiHandler {

    private static final Set<ApiKey> UNCHECKED = EnumSet.of(ApiKey.API_VERSIONS, ApiKey.SASL_HANDSHAKE,
            ApiKey.SASL_AUTHENTICATE, ApiKey.DESCRIBE_ACLS, ApiKey.CREATE_ACLS, ApiKey.DELETE_ACLS);
    private static final Set<ApiKey> CHECKED = EnumSet.of(ApiKey.PRODUCE, ApiKey.METADATA, ApiKey.INIT_PRODUCER_ID,
            ApiKey.FIND_COORDINATOR, ApiKey.JOIN_GROUP, ApiKey.SYNC_GROUP, ApiKey.HEARTBEAT, ApiKey.LEAVE_GROUP);
    private static final byte TRANSACTION_KEY_TYPE = 1;
    private static final short BATCHED_FIND_COORDINATOR_VERSION = 4;
    private static final short PRODUCE_TOPIC_IDS_FROM_VERSION = 13;

    private final StandardAuthorizer authorizer;
    private final ApiHandler handler;
    private final Function<UUID, Optional<String>> topicNames;

    private AuthorizingHandler(StandardAuthorizer authorizer, ApiHandler handler,
                               Function<UUID, Optional<String>> topicNames) {
        this.authorizer = authorizer;
        this.handler = handler;
        this.topicNames = topicNames;
    }

    /** The handler to register for {@code api}: {@code handler} itself where no authorization is needed. */
    public static ApiHandler wrap(ApiKey api, ApiHandler handler, StandardAuthorizer authorizer,
                                  Function<UUID, Optional<String>> topicNames) {
        return UNCHECKED.contains(api) ? handler : new AuthorizingHandler(authorizer, handler, topicNames);
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Check check = new Check(context.principal(), AclApisHandler.host(context.clientAddress()));
        if (!CHECKED.contains(request.api())) {
            if (!authorizer.isSuperUser(check.principal)) {
                throw new CloseConnection(request.api() + " is served to super users only while ACLs are on");
            }
            return handler.handle(context, request);
        }
        return switch (request.api()) {
            case PRODUCE -> produce(context, request, check);
            case METADATA -> metadata(context, request, check);
            case INIT_PRODUCER_ID -> initProducerId(context, request, check);
            case FIND_COORDINATOR -> findCoordinator(context, request, check);
            case JOIN_GROUP, SYNC_GROUP, HEARTBEAT, LEAVE_GROUP -> groupMembership(context, request, check);
            default -> throw new IllegalStateException(request.api() + " has no check");
        };
    }

    private record Denied(ProduceRequestView.TopicProduceData topic, Errors error) {
    }

    private CompletionStage<Struct> produce(RequestContext context, Request request, Check check) {
        ProduceRequestView body = new ProduceRequestView(request.body());
        boolean byId = request.version() >= PRODUCE_TOPIC_IDS_FROM_VERSION;
        String transactionalId = body.transactionalId();
        boolean transactionAllowed = transactionalId == null
                || check.allowed(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId);
        List<ProduceRequestView.TopicProduceData> kept = new ArrayList<>();
        List<Denied> denied = new ArrayList<>();
        for (ProduceRequestView.TopicProduceData topic : body.topicData()) {
            Optional<String> name = byId ? topicNames.apply(topic.topicId()) : Optional.ofNullable(topic.name());
            if (!transactionAllowed) {
                denied.add(new Denied(topic, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED));
            } else if (name.isPresent() && !check.allowed(AclOperation.WRITE, ResourceType.TOPIC, name.get())) {
                denied.add(new Denied(topic, Errors.TOPIC_AUTHORIZATION_FAILED));
            } else {
                kept.add(topic); // an unknown topic is the handler's to answer
            }
        }
        if (denied.isEmpty()) {
            return handler.handle(context, request);
        }
        body.topicData(kept);
        return handler.handle(context, request).thenApply(answer -> {
            if (answer == null) { // acks=0: the client learns of the refusal only by the disconnect, as in Kafka
                throw new CloseConnection("produce refused by the authorizer");
            }
            ProduceResponseView response = new ProduceResponseView(answer);
            for (Denied d : denied) {
                ProduceResponseView.TopicProduceResponse topic = response.addResponse();
                if (byId) {
                    topic.topicId(d.topic().topicId());
                } else {
                    topic.name(d.topic().name());
                }
                d.topic().partitionData().forEach(p -> topic.addPartitionResponse().index(p.index())
                        .errorCode(d.error().code()).baseOffset(-1L));
            }
            return answer;
        });
    }

    private CompletionStage<Struct> metadata(RequestContext context, Request request, Check check) {
        MetadataRequestView body = new MetadataRequestView(request.body());
        boolean allTopics = body.topics() == null;
        if (!allTopics && body.allowAutoTopicCreation()) {
            boolean mayCreate = check.allowed(AclOperation.CREATE, ResourceType.CLUSTER, AclApisHandler.CLUSTER_NAME)
                    || body.topics().stream().allMatch(t -> t.name() == null
                    || check.allowed(AclOperation.CREATE, ResourceType.TOPIC, t.name()));
            body.allowAutoTopicCreation(mayCreate);
        }
        return handler.handle(context, request).thenApply(answer -> {
            MetadataResponseView response = new MetadataResponseView(answer);
            List<MetadataResponseView.MetadataResponseTopic> visible = new ArrayList<>();
            for (MetadataResponseView.MetadataResponseTopic topic : response.topics()) {
                if (topic.name() == null || check.allowed(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name())) {
                    visible.add(topic);
                } else if (!allTopics) { // named by the client: answered with the refusal, as Kafka does
                    visible.add(topic.errorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()).partitions(List.of()));
                }
            }
            response.topics(visible);
            return answer;
        });
    }

    private CompletionStage<Struct> initProducerId(RequestContext context, Request request, Check check) {
        String transactionalId = new InitProducerIdRequestView(request.body()).transactionalId();
        Errors refusal = null;
        if (transactionalId != null) {
            if (!check.allowed(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
                refusal = Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
            }
        } else if (!check.allowed(AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER, AclApisHandler.CLUSTER_NAME)
                && !authorizer.allowsAny(check.principal, check.host, AclOperation.WRITE, ResourceType.TOPIC)) {
            refusal = Errors.CLUSTER_AUTHORIZATION_FAILED;
        }
        if (refusal == null) {
            return handler.handle(context, request);
        }
        return CompletableFuture.completedFuture(new InitProducerIdResponseView().errorCode(refusal.code())
                .producerId(-1L).struct());
    }

    /**
     * FindCoordinator needs DESCRIBE on the group, or on the transactional id: a refused key is answered
     * GROUP_AUTHORIZATION_FAILED (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), the others as usual.
     */
    private CompletionStage<Struct> findCoordinator(RequestContext context, Request request, Check check) {
        FindCoordinatorRequestView body = new FindCoordinatorRequestView(request.body());
        boolean transactional = body.keyType() == TRANSACTION_KEY_TYPE;
        ResourceType type = transactional ? ResourceType.TRANSACTIONAL_ID : ResourceType.GROUP;
        Errors refusal = transactional ? Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
                : Errors.GROUP_AUTHORIZATION_FAILED;
        if (request.version() < BATCHED_FIND_COORDINATOR_VERSION) {
            if (check.allowed(AclOperation.DESCRIBE, type, body.key())) {
                return handler.handle(context, request);
            }
            return CompletableFuture.completedFuture(new FindCoordinatorResponseView().errorCode(refusal.code())
                    .nodeId(-1).host("").port(-1).struct());
        }
        List<String> allowed = new ArrayList<>();
        List<String> refused = new ArrayList<>();
        body.coordinatorKeys().forEach(key -> (check.allowed(AclOperation.DESCRIBE, type, key) ? allowed : refused)
                .add(key));
        if (refused.isEmpty()) {
            return handler.handle(context, request);
        }
        body.coordinatorKeys(allowed);
        return handler.handle(context, request).thenApply(answer -> {
            FindCoordinatorResponseView response = new FindCoordinatorResponseView(answer);
            refused.forEach(key -> response.addCoordinator().key(key).nodeId(-1).host("").port(-1)
                    .errorCode(refusal.code()));
            return answer;
        });
    }

    /** JoinGroup, SyncGroup, Heartbeat and LeaveGroup need READ on the group, else GROUP_AUTHORIZATION_FAILED. */
    private CompletionStage<Struct> groupMembership(RequestContext context, Request request, Check check) {
        String groupId = switch (request.api()) {
            case JOIN_GROUP -> new JoinGroupRequestView(request.body()).groupId();
            case SYNC_GROUP -> new SyncGroupRequestView(request.body()).groupId();
            case HEARTBEAT -> new HeartbeatRequestView(request.body()).groupId();
            default -> new LeaveGroupRequestView(request.body()).groupId();
        };
        if (check.allowed(AclOperation.READ, ResourceType.GROUP, groupId)) {
            return handler.handle(context, request);
        }
        short code = Errors.GROUP_AUTHORIZATION_FAILED.code();
        return CompletableFuture.completedFuture(switch (request.api()) {
            case JOIN_GROUP -> new JoinGroupResponseView().errorCode(code).struct();
            case SYNC_GROUP -> new SyncGroupResponseView().errorCode(code).struct();
            case HEARTBEAT -> new HeartbeatResponseView().errorCode(code).struct();
            default -> new LeaveGroupResponseView().errorCode(code).struct();
        });
    }

    private final class Check {
        final KafkaPrincipal principal;
        final String host;

        Check(KafkaPrincipal principal, String host) {
            this.principal = principal;
            this.host = host;
        }

        boolean allowed(AclOperation operation, ResourceType type, String name) {
            return authorizer.authorize(principal, host, operation, type, name);
        }
    }
}
