package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeCluster: the same picture as Metadata without topics. This node answers on broker listeners, so a
 * request for controller endpoints (endpoint type 2, v1+) gets MISMATCHED_ENDPOINT_TYPE, as a Kafka broker
 * listener answers it.
 */
public final class DescribeClusterHandler implements ApiHandler {

    private static final byte BROKER_ENDPOINTS = 1;

    private final LocalNode node;

    public DescribeClusterHandler(LocalNode node) {
        this.node = node;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DESCRIBE_CLUSTER.response().newMessage()
                .set("ClusterId", node.clusterId())
                .set("ControllerId", node.nodeId());
        byte endpointType = (Byte) request.body().get("EndpointType");
        if (endpointType != BROKER_ENDPOINTS) {
            response.set("ErrorCode", Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .set("ErrorMessage", "this listener serves broker endpoints");
        } else {
            node.endpointFor(context.listenerName()).ifPresent(endpoint -> response.addElement("Brokers")
                    .set("BrokerId", node.nodeId())
                    .set("Host", endpoint.host())
                    .set("Port", endpoint.port()));
        }
        return CompletableFuture.completedFuture(response);
    }
}
