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
 * request for controller endpoints (endpoint type 2, v1+) gets MISMATCHED_ENDPOINT_TYPE and one for a type Kafka does
 * not know UNSUPPORTED_ENDPOINT_TYPE, as a Kafka broker listener answers them. From v2 a request may ask for the
 * fenced brokers too (IncludeFencedBrokers), each marked IsFenced, as Kafka's KRaftMetadataCache lists the registered
 * brokers then; a single node is never fenced.
 */
public final class DescribeClusterHandler implements ApiHandler {

    private static final byte BROKER_ENDPOINTS = 1;
    private static final byte CONTROLLER_ENDPOINTS = 2;

    private final String clusterId;
    private final BrokerDirectory brokers;

    public DescribeClusterHandler(String clusterId, BrokerDirectory brokers) {
        this.clusterId = clusterId;
        this.brokers = brokers;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        byte endpointType = new DescribeClusterRequestView(request.body()).endpointType();
        if (endpointType != BROKER_ENDPOINTS) {
            // As Kafka's AuthHelper.computeDescribeClusterResponse: INVALID_REQUEST at v0, and nothing else told.
            boolean known = endpointType == CONTROLLER_ENDPOINTS;
            Errors error = request.version() == 0 ? Errors.INVALID_REQUEST
                    : known ? Errors.MISMATCHED_ENDPOINT_TYPE : Errors.UNSUPPORTED_ENDPOINT_TYPE;
            return CompletableFuture.completedFuture(new DescribeClusterResponseView().errorCode(error.code())
                    .errorMessage(known ? "The request was sent to an endpoint of type BROKER, but we wanted an"
                            + " endpoint of type CONTROLLER" : "Unsupported endpoint type " + endpointType)
                    .struct());
        }
        DescribeClusterResponseView response = new DescribeClusterResponseView()
                .clusterId(clusterId)
                .controllerId(brokers.controllerId());
        boolean includeFenced = new DescribeClusterRequestView(request.body()).includeFencedBrokers();
        for (BrokerDirectory.ListedBroker broker : brokers.brokers(context.listenerName(), includeFenced)) {
            response.addBroker()
                    .brokerId(broker.id())
                    .host(broker.host())
                    .port(broker.port())
                    .rack(broker.rack())
                    .isFenced(broker.fenced());
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
