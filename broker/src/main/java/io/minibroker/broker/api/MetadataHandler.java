package io.minibroker.broker.api;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Metadata: this broker, at the advertised address of the listener the request came on, as the only broker and
 * the controller. Topics arrive with the log layer; until then every named topic is unknown.
 */
public final class MetadataHandler implements ApiHandler {

    private final int nodeId;
    private final String clusterId;
    private final Supplier<List<Endpoint>> advertisedListeners;

    /** {@code advertisedListeners} is read per request: with port 0 the real ports are known only once bound. */
    public MetadataHandler(int nodeId, String clusterId, Supplier<List<Endpoint>> advertisedListeners) {
        this.nodeId = nodeId;
        this.clusterId = clusterId;
        this.advertisedListeners = advertisedListeners;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        MetadataRequestView metadataRequest = new MetadataRequestView(request.body());
        MetadataResponseView response = new MetadataResponseView()
                .clusterId(clusterId)
                .controllerId(nodeId);
        for (Endpoint endpoint : advertisedListeners.get()) {
            if (endpoint.listenerName().equals(context.listenerName())) {
                response.addBroker().nodeId(nodeId).host(endpoint.host()).port(endpoint.port());
            }
        }
        if (metadataRequest.topics() != null) {
            for (MetadataRequestView.MetadataRequestTopic topic : metadataRequest.topics()) {
                response.addTopic()
                        .name(topic.name())
                        .topicId(topic.topicId())
                        .errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
