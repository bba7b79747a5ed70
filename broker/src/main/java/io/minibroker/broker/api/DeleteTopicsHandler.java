package io.minibroker.broker.api;

import io.minibroker.broker.topic.TopicIds;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** DeleteTopics, by name (v1-5) or by name or topic id (v6+). */
public final class DeleteTopicsHandler implements ApiHandler {

    private final TopicRegistry topics;

    public DeleteTopicsHandler(TopicRegistry topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DELETE_TOPICS.response().newMessage();
        if (request.version() < 6) {
            List<String> names = request.body().getList("TopicNames");
            for (String name : names) {
                response.addElement("Responses").set("Name", name).set("ErrorCode", topics.delete(name).code());
            }
        } else {
            for (Struct state : request.body().getStructs("Topics")) {
                deleteByNameOrId(state.getString("Name"), state.getUuid("TopicId"), response.addElement("Responses"));
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private void deleteByNameOrId(String name, UUID id, Struct result) {
        if (name == null) {
            Optional<TopicMetadata> topic = topics.get(id);
            result.set("TopicId", id);
            if (topic.isEmpty()) {
                result.set("ErrorCode", Errors.UNKNOWN_TOPIC_ID.code());
                return;
            }
            name = topic.get().name();
        }
        UUID deletedId = topics.get(name).map(TopicMetadata::id).orElse(TopicIds.ZERO);
        result.set("Name", name).set("TopicId", deletedId).set("ErrorCode", topics.delete(name).code());
    }
}
