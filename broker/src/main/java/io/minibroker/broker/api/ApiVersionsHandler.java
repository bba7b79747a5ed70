package io.minibroker.broker.api;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * ApiVersions: the advertised table, and (v3+) the features: {@code share.version} at 1 (share groups on),
 * {@code streams.version} at 1 while streams groups are served, and
 * {@code transaction.version}, supported from 0 to 2 and finalized at the broker's level
 * ({@code minibroker.transaction.version}, 2 by default as a Kafka 4 cluster formatted with its defaults; a feature
 * at level 0 is not listed as finalized, as Kafka leaves it out). Kafka 4 clients take KIP-890's transaction
 * protocol when the finalized level is 2 or more. From v5 (KIP-1242) a client may name the cluster and node it
 * expects; if either differs from ours it gets REBOOTSTRAP_REQUIRED, so that a client whose bootstrap address now
 * leads to another cluster starts over instead of mixing metadata.
 */
public final class ApiVersionsHandler implements ApiHandler {

    public static final String TRANSACTION_VERSION = "transaction.version";
    private static final short MAX_TRANSACTION_VERSION = 2;
    /**
     * KIP-932's feature: level 1 (SV_1) turns share groups on; Kafka 4.2+ finalizes it at 1 in a cluster formatted
     * with its defaults, and this broker always serves share groups.
     */
    public static final String SHARE_VERSION = "share.version";
    private static final short SHARE_VERSION_LEVEL = 1;
    /**
     * KIP-1071's feature: level 1 turns streams groups on; Kafka 4.3 finalizes it at 1 with its defaults. Finalized
     * here while this broker serves StreamsGroupHeartbeat ({@code group.coordinator.rebalance.protocols} names streams).
     */
    public static final String STREAMS_VERSION = "streams.version";
    private static final short STREAMS_VERSION_LEVEL = 1;

    /** KIP-511's form of a client software name or version: starts and ends with a letter or digit. */
    private static final Pattern SOFTWARE_NAME_OR_VERSION =
            Pattern.compile("[a-zA-Z0-9](?:[a-zA-Z0-9\\-.]*[a-zA-Z0-9])?");

    private final SupportedApis apis;
    private final String clusterId;
    private final int nodeId;
    private final short transactionVersion;

    public ApiVersionsHandler(SupportedApis apis, String clusterId, int nodeId, short transactionVersion) {
        this.apis = apis;
        this.clusterId = clusterId;
        this.nodeId = nodeId;
        this.transactionVersion = transactionVersion;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        if (!namesSoftwareValidly(request)) {
            // Kafka's ApiVersionsRequest.isValid failing: INVALID_REQUEST, and nothing advertised.
            return CompletableFuture.completedFuture(
                    new ApiVersionsResponseView().errorCode(Errors.INVALID_REQUEST.code()).struct());
        }
        ApiVersionsResponseView body = apis.fillApiVersions(new ApiVersionsResponseView(),
                expectsAnotherBroker(request) ? Errors.REBOOTSTRAP_REQUIRED : Errors.NONE);
        body.addSupportedFeature().name(TRANSACTION_VERSION).minVersion((short) 0).maxVersion(MAX_TRANSACTION_VERSION);
        body.addSupportedFeature().name(SHARE_VERSION).minVersion((short) 0).maxVersion(SHARE_VERSION_LEVEL);
        body.addSupportedFeature().name(STREAMS_VERSION).minVersion((short) 0).maxVersion(STREAMS_VERSION_LEVEL);
        // The epoch of the finalized features: Kafka's is the metadata offset they were read at; they never change
        // while this broker runs, and clients take any epoch above -1 (none).
        body.finalizedFeaturesEpoch(0);
        if (transactionVersion > 0) {
            body.addFinalizedFeature().name(TRANSACTION_VERSION).minVersionLevel(transactionVersion)
                    .maxVersionLevel(transactionVersion);
        }
        body.addFinalizedFeature().name(SHARE_VERSION).minVersionLevel(SHARE_VERSION_LEVEL)
                .maxVersionLevel(SHARE_VERSION_LEVEL);
        if (apis.entries().containsKey(ApiKey.STREAMS_GROUP_HEARTBEAT)) {
            body.addFinalizedFeature().name(STREAMS_VERSION).minVersionLevel(STREAMS_VERSION_LEVEL)
                    .maxVersionLevel(STREAMS_VERSION_LEVEL);
        }
        return CompletableFuture.completedFuture(body.struct());
    }

    /** From v3 (KIP-511) the client's software name and version must each be letters, digits, '-' and '.'. */
    private static boolean namesSoftwareValidly(Request request) {
        if (request.version() < 3) {
            return true;
        }
        ApiVersionsRequestView asked = new ApiVersionsRequestView(request.body());
        return SOFTWARE_NAME_OR_VERSION.matcher(asked.clientSoftwareName()).matches()
                && SOFTWARE_NAME_OR_VERSION.matcher(asked.clientSoftwareVersion()).matches();
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
