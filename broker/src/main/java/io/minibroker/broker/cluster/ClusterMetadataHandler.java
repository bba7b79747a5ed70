package io.minibroker.broker.cluster;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Metadata for clients of a broker in a cluster, answered from its copy of the controller's image, so every broker
 * that has caught up answers the same: brokers, controller, leaders, replicas, ISR, offline replicas. Topics are
 * not auto-created here: an unknown topic is UNKNOWN_TOPIC_OR_PARTITION.
 */
public final class ClusterMetadataHandler implements ApiHandler {

    private final String clusterId;
    private final MetadataFetcher metadata;

    public ClusterMetadataHandler(String clusterId, MetadataFetcher metadata) {
        this.clusterId = clusterId;
        this.metadata = metadata;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ClusterMetadata image = metadata.current();
        MetadataResponseView response = new MetadataResponseView().clusterId(clusterId);
        image.describeCluster(response, context.listenerName());
        List<MetadataRequestView.MetadataRequestTopic> requested = new MetadataRequestView(request.body()).topics();
        if (requested == null || (requested.isEmpty() && request.version() == 0)) { // v0: empty means all
            image.topics().values().forEach(topic -> ClusterMetadata.describe(topic, response.addTopic()));
        } else {
            for (MetadataRequestView.MetadataRequestTopic wanted : requested) {
                MetadataResponseView.MetadataResponseTopic result = response.addTopic();
                Optional<ClusterMetadata.TopicImage> topic = wanted.name() == null
                        ? image.topic(wanted.topicId()) : image.topic(wanted.name());
                if (topic.isPresent()) {
                    ClusterMetadata.describe(topic.get(), result);
                } else if (wanted.name() == null) {
                    result.topicId(wanted.topicId()).errorCode(Errors.UNKNOWN_TOPIC_ID.code());
                } else {
                    result.name(wanted.name()).errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                }
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
