package io.minibroker.broker.api;

import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.feature.FeatureLevels;
import io.minibroker.broker.feature.FinalizedFeatures;
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
 * ApiVersions: the advertised table, and (v3+) the features as a Kafka 4.3.1 node answers them: every feature it
 * supports with its range ({@link Feature}), the finalized levels above 0 (a storage formatted with the defaults
 * finalizes all but {@code kraft.version}; UpdateFeatures changes them; {@code streams.version} only while streams
 * groups are served, {@code group.coordinator.rebalance.protocols} naming them) and their epoch. Kafka 4 clients take
 * KIP-890's transaction protocol when the finalized {@code transaction.version} is 2 or more. From v5 (KIP-1242) a
 * client may name the cluster and node it expects; if either differs from ours it gets REBOOTSTRAP_REQUIRED, so
 * that a client whose bootstrap address now leads to another cluster starts over instead of mixing metadata.
 */
public final class ApiVersionsHandler implements ApiHandler {

    /** KIP-511's form of a client software name or version: starts and ends with a letter or digit. */
    private static final Pattern SOFTWARE_NAME_OR_VERSION =
            Pattern.compile("[a-zA-Z0-9](?:[a-zA-Z0-9\\-.]*[a-zA-Z0-9])?");

    private final SupportedApis apis;
    private final String clusterId;
    private final int nodeId;
    private final FinalizedFeatures features;

    public ApiVersionsHandler(SupportedApis apis, String clusterId, int nodeId, FinalizedFeatures features) {
        this.apis = apis;
        this.clusterId = clusterId;
        this.nodeId = nodeId;
        this.features = features;
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
        FeatureLevels finalized = features.current();
        boolean streamsGroupsServed = apis.entries().containsKey(ApiKey.STREAMS_GROUP_HEARTBEAT);
        body.finalizedFeaturesEpoch(finalized.epoch());
        for (Feature feature : Feature.values()) {
            body.addSupportedFeature().name(feature.featureName()).minVersion(feature.minSupported())
                    .maxVersion(feature.maxSupported());
            short level = finalized.level(feature);
            if (level > 0 && (feature != Feature.STREAMS_VERSION || streamsGroupsServed)) {
                body.addFinalizedFeature().name(feature.featureName()).minVersionLevel(level).maxVersionLevel(level);
            }
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
