package io.minibroker.broker.controller;

import io.minibroker.broker.admin.CreatePartitionsHandler;
import io.minibroker.broker.admin.PartitionsPerRequest;
import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
        boolean validateOnly = (Boolean) request.body().get("ValidateOnly");
        Struct response = ApiKey.CREATE_PARTITIONS.response().newMessage();
        if (PartitionsPerRequest.tooManyToAdd(request.body().getStructs("Topics"), assignments::partitionCount)) {
            return CompletableFuture.completedFuture(CreatePartitionsHandler.refuseAll(request.body(), response));
        }
        for (Struct topic : request.body().getStructs("Topics")) {
            List<Struct> given = topic.getStructs("Assignments");
            List<List<Integer>> replicas = given == null ? null
                    : given.stream().map(assignment -> assignment.<Integer>getList("BrokerIds")).toList();
            TopicAssignments.Outcome outcome = assignments.addPartitions(topic.getString("Name"),
                    topic.getInt32("Count"), replicas, validateOnly);
            response.addElement("Results").set("Name", topic.getString("Name"))
                    .set("ErrorCode", outcome.error().code()).set("ErrorMessage", outcome.message());
        }
        return CompletableFuture.completedFuture(response);
    }
}
