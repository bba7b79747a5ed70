package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Metadata: this broker, at the advertised address of the listener the request came on, as the only broker and
 * the controller. Topics arrive with the log layer; until then every named topic is unknown.
 */
public final class MetadataHandler implements ApiHandler {

    private final LocalNode node;

    public MetadataHandler(LocalNode node) {
        this.node = node;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        MetadataRequestView metadataRequest = new MetadataRequestView(request.body());
        MetadataResponseView response = new MetadataResponseView()
                .clusterId(node.clusterId())
                .controllerId(node.nodeId());
        node.endpointFor(context.listenerName()).ifPresent(endpoint ->
                response.addBroker().nodeId(node.nodeId()).host(endpoint.host()).port(endpoint.port()));
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
