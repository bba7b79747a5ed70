package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Metadata, on the controller's listener: how brokers fetch the cluster's image. Whatever topics are asked for,
 * the answer is the whole image, taken at one instant, with every broker once per advertised listener (the
 * listener's name in the rack field; see {@link ClusterMetadata#describeImage}).
 */
public final class ControllerMetadataHandler implements ApiHandler {

    private final String clusterId;
    private final TopicAssignments assignments;

    public ControllerMetadataHandler(String clusterId, TopicAssignments assignments) {
        this.clusterId = clusterId;
        this.assignments = assignments;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ClusterMetadata image = assignments.image();
        MetadataResponseView response = new MetadataResponseView().clusterId(clusterId);
        image.describeImage(response);
        image.topics().values().forEach(topic -> ClusterMetadata.describe(topic, response.addTopic()));
        return CompletableFuture.completedFuture(response.struct());
    }
}
