package io.minibroker.broker.cluster;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.metadata.MetadataHandler;
import io.minibroker.broker.topic.RequestingClient;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;

/**
 * Metadata for clients of a broker in a cluster, answered from its copy of the controller's image, so every broker
 * that has caught up answers the same: brokers, controller, leaders, replicas, ISR, offline replicas.
 *
 * <p>A named topic that does not exist, in a request that allows auto-creation, is asked of the controller when
 * {@code auto.create.topics.enable} is on ({@link ControllerTopicAutoCreation}) without waiting for it, and answered
 * UNKNOWN_TOPIC_OR_PARTITION, as Kafka's KRaft brokers answer it; the client asks again and finds the topic once
 * it is created. An unknown topic is UNKNOWN_TOPIC_OR_PARTITION (UNKNOWN_TOPIC_ID when named by id), an illegal
 * name INVALID_TOPIC_EXCEPTION.
 */
public final class ClusterMetadataHandler implements ApiHandler {

    private final String clusterId;
    private final MetadataFetcher metadata;
    private final ControllerTopicAutoCreation autoCreation;

    /**
     * @param autoCreation how unknown topics are created, on the requesting client's account, or null if
     *                     {@code auto.create.topics.enable} is off
     */
    public ClusterMetadataHandler(String clusterId, MetadataFetcher metadata,
                                  ControllerTopicAutoCreation autoCreation) {
        this.clusterId = clusterId;
        this.metadata = metadata;
        this.autoCreation = autoCreation;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        MetadataRequestView metadataRequest = new MetadataRequestView(request.body());
        List<MetadataRequestView.MetadataRequestTopic> requested = metadataRequest.topics();
        Errors invalid = MetadataHandler.requestError(request, requested);
        if (invalid != Errors.NONE) {
            return CompletableFuture.completedFuture(MetadataHandler.errorResponse(requested, invalid));
        }
        if (autoCreation != null && metadataRequest.allowAutoTopicCreation() && requested != null
                && !MetadataHandler.answersByIdOnly(requested)) {
            ClusterMetadata image = metadata.current();
            Set<String> creatable = requested.stream()
                    .map(MetadataRequestView.MetadataRequestTopic::name)
                    .filter(name -> name != null && image.topic(name).isEmpty()
                            && TopicRegistry.invalidName(name) == null)
                    .collect(Collectors.toCollection(LinkedHashSet::new));
            if (!creatable.isEmpty()) {
                autoCreation.createFor(new RequestingClient(context, request.header()), creatable);
            }
        }
        return CompletableFuture.completedFuture(answer(context, request, requested));
    }

    private Struct answer(RequestContext context, Request request,
                          List<MetadataRequestView.MetadataRequestTopic> requested) {
        ClusterMetadata image = metadata.current();
        MetadataResponseView response = new MetadataResponseView().clusterId(clusterId);
        image.describeCluster(response, context.listenerName());
        IntPredicate reachable = image.reachableOn(context.listenerName());
        if (MetadataHandler.asksForAllTopics(request.version(), requested)) {
            image.topics().values()
                    .forEach(topic -> ClusterMetadata.describe(topic, response.addTopic(), reachable));
            return response.struct();
        }
        boolean idsOnly = MetadataHandler.answersByIdOnly(requested);
        for (MetadataRequestView.MetadataRequestTopic wanted : requested) {
            boolean byId = MetadataHandler.byId(wanted);
            if (idsOnly && !byId) {
                continue;
            }
            MetadataResponseView.MetadataResponseTopic result = response.addTopic();
            Optional<ClusterMetadata.TopicImage> topic = byId
                    ? image.topic(wanted.topicId()) : image.topic(wanted.name());
            if (topic.isPresent()) {
                ClusterMetadata.describe(topic.get(), result, reachable);
            } else if (byId) {
                result.topicId(wanted.topicId()).errorCode(Errors.UNKNOWN_TOPIC_ID.code());
            } else if (TopicRegistry.invalidName(wanted.name()) != null) {
                result.name(wanted.name()).errorCode(Errors.INVALID_TOPIC_EXCEPTION.code());
            } else {
                result.name(wanted.name()).errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            }
        }
        return response.struct();
    }
}
