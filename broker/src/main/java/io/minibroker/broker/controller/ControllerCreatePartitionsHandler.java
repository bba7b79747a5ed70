package io.minibroker.broker.controller;

import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView.CreatePartitionsTopicResult;
import io.minibroker.protocol.schema.Struct;

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
     * Adds the partitions, counted against the controller_mutation_rate where Kafka's controller counts them: once
     * the count and the number of replica lists pass, before the lists' brokers and the placement are checked
     * (validateOnly too).
     */
    private void add(CreatePartitionsTopic topic, CreatePartitionsTopicResult result, boolean validateOnly,
                     ControllerMutationQuotas.Quota quota) {
        TopicAssignments.Outcome outcome = assignments.addPartitions(topic.name(), topic.count(),
                CreatePartitionsHandler.replicaLists(topic), validateOnly, quota::record);
        result.errorCode(outcome.error().code()).errorMessage(outcome.message());
    }
}
