package io.minibroker.broker.api;

import io.minibroker.broker.topic.DeletableTopics;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DeleteTopics, by name (v1-5) or by name or topic id (v6+), on a single node's topics or, on the controller, the
 * cluster's. With {@code delete.topic.enable=false} every topic is refused as Kafka refuses it: TOPIC_DELETION_DISABLED,
 * or INVALID_REQUEST before v3, which has no such error.
 */
public final class DeleteTopicsHandler implements ApiHandler {

    private static final int DELETION_DISABLED_ERROR_FROM_VERSION = 3;

    private final DeletableTopics topics;
    private final boolean deleteEnabled;

    public DeleteTopicsHandler(DeletableTopics topics, boolean deleteEnabled) {
        this.topics = topics;
        this.deleteEnabled = deleteEnabled;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DELETE_TOPICS.response().newMessage();
        Errors disabled = deleteEnabled ? null : request.version() < DELETION_DISABLED_ERROR_FROM_VERSION
                ? Errors.INVALID_REQUEST : Errors.TOPIC_DELETION_DISABLED;
        if (request.version() < 6) {
            List<String> names = request.body().getList("TopicNames");
            for (String name : names) {
                response.addElement("Responses").set("Name", name)
                        .set("ErrorCode", (disabled != null ? disabled : topics.delete(name)).code());
            }
        } else {
            for (Struct state : request.body().getStructs("Topics")) {
                Struct result = response.addElement("Responses");
                if (disabled != null) {
                    result.set("Name", state.getString("Name")).set("TopicId", state.getUuid("TopicId"))
                            .set("ErrorCode", disabled.code());
                } else {
                    deleteByNameOrId(state.getString("Name"), state.getUuid("TopicId"), result);
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private void deleteByNameOrId(String name, UUID id, Struct result) {
        if (name == null) {
            Optional<String> named = topics.nameOf(id);
            result.set("TopicId", id);
            if (named.isEmpty()) {
                result.set("ErrorCode", Errors.UNKNOWN_TOPIC_ID.code());
                return;
            }
            name = named.get();
        }
        UUID deletedId = topics.idOf(name).orElse(TopicIds.ZERO);
        result.set("Name", name).set("TopicId", deletedId).set("ErrorCode", topics.delete(name).code());
    }
}
