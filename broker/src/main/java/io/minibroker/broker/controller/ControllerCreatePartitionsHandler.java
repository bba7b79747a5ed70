package io.minibroker.broker.controller;

import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.admin.PartitionsPerRequest;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsAssignment;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
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

    public ControllerCreatePartitionsHandler(TopicAssignments assignments) {
        this.assignments = assignments;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreatePartitionsRequestView create = new CreatePartitionsRequestView(request.body());
        boolean validateOnly = create.validateOnly();
        CreatePartitionsResponseView response = new CreatePartitionsResponseView();
        if (PartitionsPerRequest.tooManyToAdd(create, assignments::partitionCount)) {
            return CompletableFuture.completedFuture(CreatePartitionsHandler.refuseAll(create, response).struct());
        }
        for (CreatePartitionsTopic topic : create.topics()) {
            List<CreatePartitionsAssignment> given = topic.assignments();
            List<List<Integer>> replicas = given == null ? null
                    : given.stream().map(CreatePartitionsAssignment::brokerIds).toList();
            TopicAssignments.Outcome outcome = assignments.addPartitions(topic.name(),
                    topic.count(), replicas, validateOnly);
            response.addResult().name(topic.name())
                    .errorCode(outcome.error().code()).errorMessage(outcome.message());
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
