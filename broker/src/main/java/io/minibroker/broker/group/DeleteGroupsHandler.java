package io.minibroker.broker.group;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** DeleteGroups: deletes each group without members, with its offsets; NON_EMPTY_GROUP while it has members. */
public final class DeleteGroupsHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    public DeleteGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.DELETE_GROUPS.response().newMessage();
        List<String> groupIds = request.body().getList("GroupsNames");
        for (String groupId : groupIds) {
            response.addElement("Results").set("GroupId", groupId).set("ErrorCode", coordinator.delete(groupId).code());
        }
        return CompletableFuture.completedFuture(response);
    }
}
