package io.minibroker.broker.controller;

import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView.CreatePartitionsTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * CreatePartitions, on the controller's listener, where every broker forwards its clients' CreatePartitions: adds
 * the partitions to the image ({@link TopicAssignments#addPartitions}), placed as a new topic's are or on the
 * replica lists given; the brokers named start leading or following them when they fetch the image.
 */
public final class ControllerCreatePartitionsHandler implements ApiHandler {

    private final TopicAssignments assignments;
    private final ControllerMutationQuotas mutationQuotas;

    public ControllerCreatePartitionsHandler(TopicAssignments assignments, ControllerMutationQuotas mutationQuotas) {
        this.assignments = assignments;
        this.mutationQuotas = mutationQuotas;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreatePartitionsRequestView create = new CreatePartitionsRequestView(request.body());
        ControllerMutationQuotas.Quota quota = mutationQuotas.newQuotaFor(context.principal().name(),
                request.header().clientId(), request.version(),
                ControllerMutationQuotas.CREATE_PARTITIONS_STRICT_SINCE);
        CreatePartitionsResponseView response = CreatePartitionsHandler.eachDistinctTopic(create,
                assignments::partitionCount, (topic, result) -> add(topic, result, create.validateOnly(), quota));
        return CompletableFuture.completedFuture(response.throttleTimeMs(quota.throttleTimeMs()).struct());
    }

    /**
     * Adds the partitions; under a controller_mutation_rate, once the checks pass and they are within the quota
     * (as CreatePartitionsHandler on a single node).
     */
    private void add(CreatePartitionsTopic topic, CreatePartitionsTopicResult result, boolean validateOnly,
                     ControllerMutationQuotas.Quota quota) {
        int before = assignments.partitionCount(topic.name());
        List<List<Integer>> replicas = CreatePartitionsHandler.replicaLists(topic);
        TopicAssignments.Outcome outcome = assignments.addPartitions(topic.name(), topic.count(), replicas,
                validateOnly || quota.bounded());
        if (quota.bounded() && outcome.error() == Errors.NONE) {
            if (!quota.record(topic.count() - before)) {
                result.errorCode(Errors.THROTTLING_QUOTA_EXCEEDED.code()).errorMessage(null);
                return;
            }
            if (!validateOnly) {
                outcome = assignments.addPartitions(topic.name(), topic.count(), replicas, false);
            }
        }
        result.errorCode(outcome.error().code()).errorMessage(outcome.message());
    }
}
