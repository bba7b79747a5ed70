package io.minibroker.broker.metadata;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
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

    private final String clusterId;
    private final BrokerDirectory brokers;

    public DescribeClusterHandler(String clusterId, BrokerDirectory brokers) {
        this.clusterId = clusterId;
        this.brokers = brokers;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DESCRIBE_CLUSTER.response().newMessage()
                .set("ClusterId", clusterId)
                .set("ControllerId", brokers.controllerId());
        byte endpointType = (Byte) request.body().get("EndpointType");
        if (endpointType != BROKER_ENDPOINTS) {
            response.set("ErrorCode", Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .set("ErrorMessage", "this listener serves broker endpoints");
        } else {
            for (BrokerDirectory.ListedBroker broker : brokers.brokers(context.listenerName())) {
                response.addElement("Brokers")
                        .set("BrokerId", broker.id())
                        .set("Host", broker.host())
                        .set("Port", broker.port());
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
