package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteGroupsRequestView;
import io.minibroker.protocol.message.view.DeleteGroupsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DeleteGroups: deletes each group without members, with its offsets; NON_EMPTY_GROUP while it has members. A group
 * named more than once is deleted and answered once, as Kafka's KafkaApis takes the distinct names. The deletions are
 * written on the coordinator's thread; the response waits for all of them.
 */
public final class DeleteGroupsHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public DeleteGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        // Each group once, however often named: Kafka's KafkaApis deletes and answers the distinct names.
        List<String> groupIds = new DeleteGroupsRequestView(request.body()).groupsNames().stream().distinct().toList();
        List<CompletableFuture<Errors>> results = groupIds.stream().map(coordinator::delete).toList();
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new)).thenApply(done -> {
            DeleteGroupsResponseView response = new DeleteGroupsResponseView();
            for (int i = 0; i < groupIds.size(); i++) {
                response.addResult().groupId(groupIds.get(i)).errorCode(results.get(i).join().code());
            }
            return response.struct();
        });
    }
}
