package io.minibroker.broker.controller;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.CreateTopicsHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * CreateTopics, on the controller's listener, where every broker forwards its clients' CreateTopics: places the
 * replicas ({@link TopicAssignments}) with the broker defaults for what the request leaves at -1, and keeps the
 * topic's config overrides in the image.
 */
public final class ControllerCreateTopicsHandler implements ApiHandler {

    private final TopicAssignments assignments;
    private final BrokerConfig config;
    private final int defaultPartitions;
    private final int defaultReplicationFactor;

    public ControllerCreateTopicsHandler(TopicAssignments assignments, BrokerConfig config) {
        this.assignments = assignments;
        this.config = config;
        this.defaultPartitions = config.get(BrokerConfig.NUM_PARTITIONS);
        this.defaultReplicationFactor = config.get(BrokerConfig.DEFAULT_REPLICATION_FACTOR);
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        boolean validateOnly = (Boolean) request.body().get("validateOnly");
        return CompletableFuture.completedFuture(CreateTopicsHandler.eachDistinctTopic(request.body(),
                defaultPartitions, (topic, result) -> create(topic, result, validateOnly)));
    }

    private void create(Struct topic, Struct result, boolean validateOnly) {
        if (CreateTopicsHandler.countsAlongsideAssignments(topic, result)) {
            return;
        }
        int partitions = topic.getInt32("NumPartitions");
        int replicationFactor = topic.getInt16("ReplicationFactor");
        List<List<Integer>> replicas = CreateTopicsHandler.replicasByPartition(topic, result);
        if (replicas == null) {
            return;
        }
        Map<String, String> configs = new LinkedHashMap<>();
        for (Struct config : topic.getStructs("Configs")) {
            configs.put(config.getString("Name"), config.getString("Value"));
        }
        TopicAssignments.Outcome outcome = assignments.create(topic.getString("Name"),
                partitions == -1 ? defaultPartitions : partitions,
                replicationFactor == -1 ? defaultReplicationFactor : replicationFactor, replicas, configs,
                validateOnly);
        if (outcome.error() != Errors.NONE) {
            CreateTopicsHandler.fail(result, outcome.error(), outcome.message());
            return;
        }
        result.set("TopicId", outcome.topic().id())
                .set("NumPartitions", outcome.topic().partitions().size())
                .set("ReplicationFactor", (short) outcome.topic().partitions().get(0).replicas().size());
        CreateTopicsHandler.listConfigs(result, config, outcome.topic().configs());
    }
}
