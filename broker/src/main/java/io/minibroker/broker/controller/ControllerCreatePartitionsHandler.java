package io.minibroker.broker.controller;

import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
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

    public ControllerCreatePartitionsHandler(TopicAssignments assignments) {
        this.assignments = assignments;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreatePartitionsRequestView create = new CreatePartitionsRequestView(request.body());
        return CompletableFuture.completedFuture(CreatePartitionsHandler.eachDistinctTopic(create,
                assignments::partitionCount, (topic, result) -> {
                    TopicAssignments.Outcome outcome = assignments.addPartitions(topic.name(), topic.count(),
                            CreatePartitionsHandler.replicaLists(topic), create.validateOnly());
                    result.errorCode(outcome.error().code()).errorMessage(outcome.message());
                }).struct());
    }
}
