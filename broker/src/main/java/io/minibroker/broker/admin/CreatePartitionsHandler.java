package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsAssignment;
import io.minibroker.protocol.message.view.CreatePartitionsRequestView.CreatePartitionsTopic;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView.CreatePartitionsTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * CreatePartitions: raises a topic's partition count (never lowers it), with {@code ValidateOnly}; manual
 * assignments may only name this node.
 */
public final class CreatePartitionsHandler implements ApiHandler {

    private final TopicRegistry topics;
    private final LocalNode node;

    public CreatePartitionsHandler(TopicRegistry topics, LocalNode node) {
        this.topics = topics;
        this.node = node;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreatePartitionsRequestView create = new CreatePartitionsRequestView(request.body());
        CreatePartitionsResponseView response = new CreatePartitionsResponseView();
        if (PartitionsPerRequest.tooManyToAdd(create,
                name -> topics.get(name).map(TopicMetadata::partitions).orElse(-1))) {
            return CompletableFuture.completedFuture(refuseAll(create, response).struct());
        }
        for (CreatePartitionsTopic topic : create.topics()) {
            String name = topic.name();
            CreatePartitionsTopicResult result = response.addResult().name(name);
            List<CreatePartitionsAssignment> assignments = topic.assignments();
            boolean foreignBroker = assignments != null && assignments.stream()
                    .flatMap(a -> a.brokerIds().stream()).anyMatch(id -> id != node.nodeId());
            TopicRegistry.Outcome outcome = foreignBroker
                    ? new TopicRegistry.Outcome(Errors.INVALID_REPLICA_ASSIGNMENT,
                            "Assignments may only name broker " + node.nodeId(), null)
                    : topics.addPartitions(name, topic.count(), create.validateOnly());
            result.errorCode(outcome.error().code()).errorMessage(outcome.message());
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /** Answers every topic POLICY_VIOLATION: the request adds more partitions than Kafka allows in one. */
    public static CreatePartitionsResponseView refuseAll(CreatePartitionsRequestView request,
                                                         CreatePartitionsResponseView response) {
        for (CreatePartitionsTopic topic : request.topics()) {
            response.addResult().name(topic.name())
                    .errorCode(Errors.POLICY_VIOLATION.code())
                    .errorMessage(PartitionsPerRequest.TOO_MANY_FOR_CREATE_PARTITIONS);
        }
        return response;
    }
}
