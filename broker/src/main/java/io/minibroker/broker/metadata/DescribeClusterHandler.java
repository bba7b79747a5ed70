package io.minibroker.broker.metadata;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeClusterRequestView;
import io.minibroker.protocol.message.view.DescribeClusterResponseView;
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
        DescribeClusterResponseView response = new DescribeClusterResponseView()
                .clusterId(clusterId)
                .controllerId(brokers.controllerId());
        byte endpointType = new DescribeClusterRequestView(request.body()).endpointType();
        if (endpointType != BROKER_ENDPOINTS) {
            response.errorCode(Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .errorMessage("this listener serves broker endpoints");
        } else {
            for (BrokerDirectory.ListedBroker broker : brokers.brokers(context.listenerName())) {
                response.addBroker()
                        .brokerId(broker.id())
                        .host(broker.host())
                        .port(broker.port());
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
