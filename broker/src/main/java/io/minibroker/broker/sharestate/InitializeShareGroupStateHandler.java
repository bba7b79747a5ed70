package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.InitializeShareGroupStateRequestView;
import io.minibroker.protocol.message.view.InitializeShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * InitializeShareGroupState, from a group coordinator (a heartbeat's initialization, AlterShareGroupOffsets: all of
 * a group's partitions this node coordinates in one request, as Kafka's persister sends): each partition's state
 * replaced by one at the start offset given, under the state epoch given, once it counts; or the coordinator's error
 * (NOT_COORDINATOR, FENCED_STATE_EPOCH for a state epoch older than the last one seen, INVALID_REQUEST).
 */
public final class InitializeShareGroupStateHandler implements ApiHandler {

    private final ShareCoordinator coordinator;

    public InitializeShareGroupStateHandler(ShareCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        InitializeShareGroupStateRequestView body = new InitializeShareGroupStateRequestView(request.body());
        InitializeShareGroupStateResponseView response = new InitializeShareGroupStateResponseView();
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (InitializeShareGroupStateRequestView.InitializeStateData topic : body.topics()) {
            InitializeShareGroupStateResponseView.InitializeStateResult result = response.addResult()
                    .topicId(topic.topicId());
            for (InitializeShareGroupStateRequestView.PartitionData partition : topic.partitions()) {
                InitializeShareGroupStateResponseView.PartitionResult answer = result.addPartition()
                        .partition(partition.partition());
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), partition.partition());
                answers.add(coordinator.initialize(key, partition.stateEpoch(), partition.startOffset())
                        .thenAccept(error -> answer.errorCode(error.code())));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }
}
