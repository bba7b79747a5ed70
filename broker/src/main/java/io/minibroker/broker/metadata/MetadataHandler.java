package io.minibroker.broker.metadata;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.topic.AutoCreatedTopic;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Metadata: this broker, at the advertised address of the listener the request came on, as the only broker, the
 * controller and the leader of every partition (leader epoch 0, replicas and ISR just this node).
 *
 * <p>A named topic that does not exist is created ({@link TopicRegistry#autoCreate}: the broker's defaults, or the
 * offsets topic's own settings) when the request allows it and {@code auto.create.topics.enable} is on, and answered
 * UNKNOWN_TOPIC_OR_PARTITION without partitions, as Kafka 4.3.1's AutoTopicCreationManager answers the request that
 * sets a creation off: a client asks again (after its metadata backoff) and gets the partitions then. The creation
 * itself is done before the answer, so that next request finds the topic; such a request is answered on the
 * topic-creation executor, as creating writes files (not the disk executor, from which produces are answered: they
 * must not wait behind it); every other one on the event loop. The topics one request creates count against its
 * client's {@code controller_mutation_rate} as one CreateTopics of the latest version (strict), as Kafka's broker
 * forwards them to its controller in an Envelope as the client's (its combined single node too): a topic that comes
 * while the client's quota is spent is not created, and the client finds it still unknown until the quota lets a
 * creation through.
 */
public final class MetadataHandler implements ApiHandler {

    private static final Logger LOG = LoggerFactory.getLogger(MetadataHandler.class);
    private static final int LEADER_EPOCH = 0;
    /** From this version a topic may be asked for by id (Kafka's KafkaApis refuses ids and null names before). */
    private static final int TOPIC_IDS_VERSION = 12;

    private final LocalNode node;
    private final TopicRegistry topics;
    private final BrokerConfig config;
    private final boolean autoCreate;
    private final Executor creation;
    private final ControllerMutationQuotas mutationQuotas;

    /**
     * @param creation       where a request that creates a topic is answered, since creating writes files
     * @param mutationQuotas what the topics created count against
     */
    public MetadataHandler(LocalNode node, TopicRegistry topics, BrokerConfig config, Executor creation,
                           ControllerMutationQuotas mutationQuotas) {
        this.node = node;
        this.topics = topics;
        this.config = config;
        this.autoCreate = config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE);
        this.creation = creation;
        this.mutationQuotas = mutationQuotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        MetadataRequestView metadataRequest = new MetadataRequestView(request.body());
        Errors invalid = requestError(request, metadataRequest.topics());
        if (invalid != Errors.NONE) {
            return CompletableFuture.completedFuture(errorResponse(metadataRequest.topics(), invalid));
        }
        if (autoCreate && metadataRequest.allowAutoTopicCreation() && namesAnUnknownTopic(metadataRequest)) {
            return CompletableFuture.supplyAsync(() -> answer(context, request, metadataRequest, true), creation);
        }
        return CompletableFuture.completedFuture(answer(context, request, metadataRequest, false));
    }

    private boolean namesAnUnknownTopic(MetadataRequestView metadataRequest) {
        List<MetadataRequestView.MetadataRequestTopic> requested = metadataRequest.topics();
        return requested != null && !answersByIdOnly(requested) && requested.stream()
                .anyMatch(wanted -> topics.get(wanted.name()).isEmpty());
    }

    /**
     * Whether the topic is asked for by id: a non-zero id (v12+; Kafka's clients leave the name null or empty then,
     * as the consumer does for the topics a KIP-848 assignment names by id). Kafka goes by any non-zero id.
     */
    public static boolean byId(MetadataRequestView.MetadataRequestTopic wanted) {
        UUID id = wanted.topicId();
        return id != null && (id.getMostSignificantBits() != 0 || id.getLeastSignificantBits() != 0);
    }

    /**
     * Whether a Metadata request asks for every topic: a null list, or (v0, which has no null) an empty one, as
     * Kafka's KafkaApis.handleTopicMetadataRequest reads it. The authorizer and the handlers share this rule so that
     * the topics answered are the topics filtered.
     */
    public static boolean asksForAllTopics(short version, List<MetadataRequestView.MetadataRequestTopic> requested) {
        return requested == null || (requested.isEmpty() && version == 0);
    }

    /**
     * Whether the topics asked for are the ones named by id alone: as Kafka's KafkaApis, once any topic has a non-zero
     * id, the others (a zero id) are not answered.
     */
    public static boolean answersByIdOnly(List<MetadataRequestView.MetadataRequestTopic> requested) {
        return requested != null && requested.stream().anyMatch(MetadataHandler::byId);
    }

    /**
     * The error every topic of the request gets, or NONE, as Kafka 4.3's KafkaApis.handleTopicMetadataRequest
     * answers: before v12 a null name or a non-zero id is INVALID_REQUEST; from v12 a null name with a zero id, in a
     * request that names no topic by id, is UNKNOWN_SERVER_ERROR (Kafka takes the null as a topic name and fails on
     * it: its whole response is then the error).
     */
    public static Errors requestError(Request request, List<MetadataRequestView.MetadataRequestTopic> requested) {
        if (requested == null) {
            return Errors.NONE;
        }
        boolean nullName = requested.stream().anyMatch(wanted -> wanted.name() == null);
        if (request.version() < TOPIC_IDS_VERSION) {
            return nullName || answersByIdOnly(requested) ? Errors.INVALID_REQUEST : Errors.NONE;
        }
        return nullName && !answersByIdOnly(requested) ? Errors.UNKNOWN_SERVER_ERROR : Errors.NONE;
    }

    /**
     * Kafka's error response to a Metadata request (MetadataRequest.getErrorResponse): each topic asked for, its name
     * (empty for none) and id, with the error, once for each time it is asked for (Kafka's response topics are a
     * multi-collection, which keeps a name asked for twice twice); the top-level error too (v13+).
     */
    public static Struct errorResponse(List<MetadataRequestView.MetadataRequestTopic> requested, Errors error) {
        MetadataResponseView response = new MetadataResponseView().errorCode(error.code());
        for (MetadataRequestView.MetadataRequestTopic wanted : requested) {
            String name = wanted.name() == null ? "" : wanted.name();
            response.addTopic().name(name).topicId(wanted.topicId()).errorCode(error.code()).isInternal(false);
        }
        return response.struct();
    }

    /**
     * @param creates whether the request names a topic to create: only then is its client's mutation quota looked up,
     *                not at every metadata refresh a client allowing auto-creation sends
     */
    private Struct answer(RequestContext context, Request request, MetadataRequestView metadataRequest,
                          boolean creates) {
        MetadataResponseView response = new MetadataResponseView()
                .clusterId(node.clusterId())
                .controllerId(node.nodeId());
        node.endpointFor(context.listenerName()).ifPresent(endpoint ->
                response.addBroker().nodeId(node.nodeId()).host(endpoint.host()).port(endpoint.port())
                        .rack(node.rack()));
        List<MetadataRequestView.MetadataRequestTopic> requested = metadataRequest.topics();
        if (asksForAllTopics(request.version(), requested)) {
            topics.all().forEach(topic -> describe(topic, response.addTopic()));
        } else {
            ControllerMutationQuotas.Quota creations = creates
                    ? mutationQuotas.newQuotaForCreationsOf(context.principal().name(), request.header().clientId())
                    : null;
            boolean idsOnly = answersByIdOnly(requested);
            // Kafka answers the set of topics asked for: a topic asked twice is answered once.
            Set<Object> answered = new HashSet<>();
            for (MetadataRequestView.MetadataRequestTopic wanted : requested) {
                if ((!idsOnly || byId(wanted)) && answered.add(byId(wanted) ? wanted.topicId() : wanted.name())) {
                    answer(wanted, creations, response.addTopic());
                }
            }
        }
        return response.struct();
    }

    /** @param creations the quota a topic created counts against; null if none may be created */
    private void answer(MetadataRequestView.MetadataRequestTopic wanted, ControllerMutationQuotas.Quota creations,
                        MetadataResponseView.MetadataResponseTopic result) {
        if (byId(wanted)) {
            Optional<TopicMetadata> byId = topics.get(wanted.topicId());
            if (byId.isPresent()) {
                describe(byId.get(), result);
            } else {
                result.topicId(wanted.topicId()).errorCode(Errors.UNKNOWN_TOPIC_ID.code());
            }
            return;
        }
        Optional<TopicMetadata> topic = topics.get(wanted.name());
        if (topic.isEmpty() && creations != null && TopicRegistry.invalidName(wanted.name()) == null) {
            // Created now, answered as Kafka answers while its controller creates it: unknown, no partitions. A
            // creation that fails leaves the topic unknown too, as Kafka's brokers answer while their controller
            // refuses it (default.replication.factor above the brokers, a name colliding over '.' and '_', the
            // client's controller_mutation_rate spent); an illegal name, which Kafka's broker never asks its
            // controller for, is answered INVALID_TOPIC_EXCEPTION below.
            AutoCreatedTopic decided = AutoCreatedTopic.of(wanted.name(), config);
            if (!creations.record(decided.partitions())) {
                LOG.info("Could not auto-create topic {}: {}", wanted.name(), Errors.THROTTLING_QUOTA_EXCEEDED);
            } else {
                TopicRegistry.Outcome created = topics.autoCreate(decided);
                if (created.error() != Errors.NONE && created.error() != Errors.TOPIC_ALREADY_EXISTS) {
                    LOG.info("Could not auto-create topic {}: {} {}", wanted.name(), created.error(),
                            created.message());
                }
            }
            result.name(wanted.name()).errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code())
                    .isInternal(InternalTopics.isInternal(wanted.name()));
            return;
        }
        if (topic.isEmpty()) {
            result.name(wanted.name()).errorCode(TopicRegistry.invalidName(wanted.name()) != null
                    ? Errors.INVALID_TOPIC_EXCEPTION.code() : Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            return;
        }
        describe(topic.get(), result);
    }

    private void describe(TopicMetadata topic, MetadataResponseView.MetadataResponseTopic result) {
        result.name(topic.name()).topicId(topic.id()).errorCode(Errors.NONE.code())
                .isInternal(InternalTopics.isInternal(topic.name()));
        for (int partition = 0; partition < topic.partitions(); partition++) {
            result.addPartition()
                    .partitionIndex(partition)
                    .leaderId(node.nodeId())
                    .leaderEpoch(LEADER_EPOCH)
                    .replicaNodes(List.of(node.nodeId()))
                    .isrNodes(List.of(node.nodeId()))
                    .errorCode(Errors.NONE.code());
        }
    }
}
