package io.minibroker.broker.controller;

import io.minibroker.broker.admin.CreateTopicsHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.cluster.MetadataFetcher;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.topic.PartitionRules;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView.CreatableTopic;
import io.minibroker.protocol.message.view.CreateTopicsResponseView.CreatableTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * CreateTopics, on the controller's listener, where every broker forwards its clients' CreateTopics: places the
 * replicas ({@link TopicAssignments}) with the broker defaults for what the request leaves at -1, and keeps the
 * topic's config overrides in the image. The answer waits until the new topics' live replicas have applied the
 * image that has them ({@link ImageVersion#awaitApplied}: milliseconds, as brokers follow the image), so that a
 * client told of a topic can produce to its leader at once; at most {@value MetadataFetcher#FETCH_MAX_WAIT_MS} ms
 * (a live broker reports what it applied at least that often) or the request's TimeoutMs if shorter, after which
 * it answers as Kafka's controller does, once the topic is saved.
 */
public final class ControllerCreateTopicsHandler implements ApiHandler {

    private final TopicAssignments assignments;
    private final ImageVersion version;
    private final BrokerMembership membership;
    private final BrokerConfig config;
    private final int defaultPartitions;
    private final ControllerMutationQuotas mutationQuotas;

    public ControllerCreateTopicsHandler(TopicAssignments assignments, ImageVersion version,
                                         BrokerMembership membership, BrokerConfig config,
                                         ControllerMutationQuotas mutationQuotas) {
        this.assignments = assignments;
        this.version = version;
        this.membership = membership;
        this.config = config;
        this.defaultPartitions = config.get(BrokerConfig.NUM_PARTITIONS);
        this.mutationQuotas = mutationQuotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreateTopicsRequestView create = new CreateTopicsRequestView(request.body());
        ControllerMutationQuotas.Quota quota = mutationQuotas.newQuotaFor(context.principal().name(),
                request.header().clientId(), request.version(), ControllerMutationQuotas.CREATE_TOPICS_STRICT_SINCE);
        Set<Integer> replicas = new TreeSet<>();
        CreateTopicsResponseView answer = CreateTopicsHandler.eachDistinctTopic(create, defaultPartitions,
                (topic, result) -> create(topic, result, create.validateOnly(), quota, replicas));
        Struct response = answer.throttleTimeMs(quota.throttleTimeMs()).struct();
        if (replicas.isEmpty()) {
            return CompletableFuture.completedFuture(response);
        }
        return version.awaitApplied(version.current(), replicas, membership::isLive,
                Math.min(create.timeoutMs(), MetadataFetcher.FETCH_MAX_WAIT_MS)).thenApply(applied -> response);
    }

    /**
     * Creates one topic, filling its result; under a controller_mutation_rate, once its checks pass and its
     * partitions are within the quota (counted after every check, validateOnly too, as Kafka's controller counts
     * them); adds the replicas of a topic it created to {@code created}.
     */
    private void create(CreatableTopic topic, CreatableTopicResult result, boolean validateOnly,
                        ControllerMutationQuotas.Quota quota, Set<Integer> created) {
        PartitionRules.NewTopic wanted = CreateTopicsHandler.newTopic(topic, config);
        TopicAssignments.Outcome outcome = assignments.create(topic.name(), wanted,
                CreateTopicsHandler.overrides(topic), validateOnly || quota.bounded());
        if (quota.bounded() && outcome.error() == Errors.NONE) {
            if (!quota.record(outcome.topic().partitions().size())) {
                CreateTopicsHandler.fail(result, Errors.THROTTLING_QUOTA_EXCEEDED, null);
                return;
            }
            if (!validateOnly) {
                outcome = assignments.create(topic.name(), wanted, CreateTopicsHandler.overrides(topic), false);
            }
        }
        if (outcome.error() != Errors.NONE) {
            CreateTopicsHandler.fail(result, outcome.error(), outcome.message());
            return;
        }
        if (!quota.bounded()) {
            quota.record(outcome.topic().partitions().size()); // no limit to check: only the client's mutation-rate, if recorded
        }
        result.topicId(outcome.topic().id())
                .numPartitions(outcome.topic().partitions().size())
                .replicationFactor((short) outcome.topic().partitions().get(0).replicas().size());
        CreateTopicsHandler.listConfigs(result, config, outcome.topic().configs());
        if (!validateOnly) {
            outcome.topic().partitions().forEach(partition -> created.addAll(partition.replicas()));
        }
    }
}
