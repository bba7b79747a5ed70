package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.metadata.LocalNode;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
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
        boolean validateOnly = (Boolean) request.body().get("ValidateOnly");
        Struct response = ApiKey.CREATE_PARTITIONS.response().newMessage();
        if (PartitionsPerRequest.tooManyToAdd(request.body().getStructs("Topics"),
                name -> topics.get(name).map(TopicMetadata::partitions).orElse(-1))) {
            return CompletableFuture.completedFuture(refuseAll(request.body(), response));
        }
        for (Struct topic : request.body().getStructs("Topics")) {
            String name = topic.getString("Name");
            Struct result = response.addElement("Results").set("Name", name);
            List<Struct> assignments = topic.getStructs("Assignments");
            boolean foreignBroker = assignments != null && assignments.stream()
                    .flatMap(a -> a.<Integer>getList("BrokerIds").stream()).anyMatch(id -> id != node.nodeId());
            TopicRegistry.Outcome outcome = foreignBroker
                    ? new TopicRegistry.Outcome(Errors.INVALID_REPLICA_ASSIGNMENT,
                            "Assignments may only name broker " + node.nodeId(), null)
                    : topics.addPartitions(name, topic.getInt32("Count"), validateOnly);
            result.set("ErrorCode", outcome.error().code()).set("ErrorMessage", outcome.message());
        }
        return CompletableFuture.completedFuture(response);
    }

    /** Answers every topic POLICY_VIOLATION: the request adds more partitions than Kafka allows in one. */
    public static Struct refuseAll(Struct request, Struct response) {
        for (Struct topic : request.getStructs("Topics")) {
            response.addElement("Results").set("Name", topic.getString("Name"))
                    .set("ErrorCode", Errors.POLICY_VIOLATION.code())
                    .set("ErrorMessage", PartitionsPerRequest.TOO_MANY_FOR_CREATE_PARTITIONS);
        }
        return response;
    }
}
