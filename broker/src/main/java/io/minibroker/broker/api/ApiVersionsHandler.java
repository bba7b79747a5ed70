package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ApiVersions: the advertised table. From v5 (KIP-1242) a client may name the cluster and node it expects;
 * if either differs from ours it gets REBOOTSTRAP_REQUIRED, so that a client whose bootstrap address now
 * leads to another cluster starts over instead of mixing metadata.
 */
public final class ApiVersionsHandler implements ApiHandler {

    private final SupportedApis apis;
    private final String clusterId;
    private final int nodeId;

    public ApiVersionsHandler(SupportedApis apis, String clusterId, int nodeId) {
        this.apis = apis;
        this.clusterId = clusterId;
        this.nodeId = nodeId;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ApiVersionsResponseView body = apis.fillApiVersions(new ApiVersionsResponseView(),
                expectsAnotherBroker(request) ? Errors.REBOOTSTRAP_REQUIRED : Errors.NONE);
        return CompletableFuture.completedFuture(body.struct());
    }

    private boolean expectsAnotherBroker(Request request) {
        if (request.version() < 5) {
            return false;
        }
        ApiVersionsRequestView asked = new ApiVersionsRequestView(request.body());
        String expectedCluster = asked.clusterId();
        int expectedNode = asked.nodeId();
        return (expectedCluster != null && !expectedCluster.equals(clusterId))
                || (expectedNode >= 0 && expectedNode != nodeId);
    }
}
