package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DeleteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.DeleteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** DeleteShareGroupState (DeleteShareGroupOffsets on a share-partition leader): tombstones the partitions' state. */
public final class DeleteShareGroupStateHandler implements ApiHandler {

    private final ShareCoordinator coordinator;

    public DeleteShareGroupStateHandler(ShareCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DeleteShareGroupStateRequestView body = new DeleteShareGroupStateRequestView(request.body());
        DeleteShareGroupStateResponseView response = new DeleteShareGroupStateResponseView();
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (DeleteShareGroupStateRequestView.DeleteStateData topic : body.topics()) {
            DeleteShareGroupStateResponseView.DeleteStateResult result = response.addResult().topicId(topic.topicId());
            for (DeleteShareGroupStateRequestView.PartitionData partition : topic.partitions()) {
                DeleteShareGroupStateResponseView.PartitionResult answer = result.addPartition()
                        .partition(partition.partition());
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), partition.partition());
                answers.add(coordinator.delete(key).thenAccept(error -> answer.errorCode(error.code())));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }
}
