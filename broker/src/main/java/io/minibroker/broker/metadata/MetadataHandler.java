package io.minibroker.broker.metadata;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * Metadata: this broker, at the advertised address of the listener the request came on, as the only broker, the
 * controller and the leader of every partition (leader epoch 0, replicas and ISR just this node).
 *
 * <p>A named topic that does not exist is created ({@link TopicRegistry#autoCreate}: the broker's defaults, or the
 * offsets topic's own settings) when the request allows it and {@code auto.create.topics.enable} is on, as Kafka
 * does; creation is synchronous here, so the client gets the topic's partitions in this same response instead of
 * LEADER_NOT_AVAILABLE and a retry. Such a request is answered on the disk executor, as creating writes and fsyncs
 * files; every other one on the event loop.
 */
public final class MetadataHandler implements ApiHandler {

    private static final int LEADER_EPOCH = 0;

    private final LocalNode node;
    private final TopicRegistry topics;
    private final boolean autoCreate;
    private final Executor disk;

    /** @param disk where a request that creates a topic is answered, since creating writes and fsyncs files */
    public MetadataHandler(LocalNode node, TopicRegistry topics, BrokerConfig config, Executor disk) {
        this.node = node;
        this.topics = topics;
        this.autoCreate = config.get(BrokerConfig.AUTO_CREATE_TOPICS_ENABLE);
        this.disk = disk;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        MetadataRequestView metadataRequest = new MetadataRequestView(request.body());
        if (autoCreate && metadataRequest.allowAutoTopicCreation() && namesAnUnknownTopic(metadataRequest)) {
            return CompletableFuture.supplyAsync(() -> answer(context, request, metadataRequest), disk);
        }
        return CompletableFuture.completedFuture(answer(context, request, metadataRequest));
    }

    private boolean namesAnUnknownTopic(MetadataRequestView metadataRequest) {
        List<MetadataRequestView.MetadataRequestTopic> requested = metadataRequest.topics();
        return requested != null && requested.stream()
                .anyMatch(wanted -> !byId(wanted) && topics.get(wanted.name()).isEmpty());
    }

    /**
     * Whether the topic is asked for by id (v10+): Kafka's clients leave the name null or empty then (the consumer
     * does for the topics a KIP-848 assignment names by id), and Kafka goes by any non-zero id.
     */
    public static boolean byId(MetadataRequestView.MetadataRequestTopic wanted) {
        return wanted.name() == null || wanted.name().isEmpty() && wanted.topicId() != null
                && (wanted.topicId().getMostSignificantBits() != 0 || wanted.topicId().getLeastSignificantBits() != 0);
    }

    private Struct answer(RequestContext context, Request request, MetadataRequestView metadataRequest) {
        MetadataResponseView response = new MetadataResponseView()
                .clusterId(node.clusterId())
                .controllerId(node.nodeId());
        node.endpointFor(context.listenerName()).ifPresent(endpoint ->
                response.addBroker().nodeId(node.nodeId()).host(endpoint.host()).port(endpoint.port()));
        List<MetadataRequestView.MetadataRequestTopic> requested = metadataRequest.topics();
        if (requested == null || (requested.isEmpty() && request.version() == 0)) { // v0: empty means all
            topics.all().forEach(topic -> describe(topic, response.addTopic()));
        } else {
            boolean mayCreate = autoCreate && metadataRequest.allowAutoTopicCreation();
            for (MetadataRequestView.MetadataRequestTopic wanted : requested) {
                answer(wanted, mayCreate, response.addTopic());
            }
        }
        return response.struct();
    }

    private void answer(MetadataRequestView.MetadataRequestTopic wanted, boolean mayCreate,
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
        if (topic.isEmpty() && mayCreate) {
            TopicRegistry.Outcome created = topics.autoCreate(wanted.name());
            if (created.error() != Errors.NONE && created.error() != Errors.TOPIC_ALREADY_EXISTS) {
                result.name(wanted.name()).errorCode(created.error().code());
                return;
            }
            topic = topics.get(wanted.name());
        }
        if (topic.isEmpty()) {
            result.name(wanted.name()).errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
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
