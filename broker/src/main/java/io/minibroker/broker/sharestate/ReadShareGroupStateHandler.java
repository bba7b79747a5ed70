package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ReadShareGroupStateRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ReadShareGroupState, from a share-partition leader loading a share partition: its state from this node's share
 * coordinator, or the coordinator's error (NOT_COORDINATOR, FENCED_LEADER_EPOCH; INVALID_REQUEST for a share
 * partition never initialized, as Kafka's). A state initialized without a start offset is answered with -1.
 */
public final class ReadShareGroupStateHandler implements ApiHandler {

    private final ShareCoordinator coordinator;

    public ReadShareGroupStateHandler(ShareCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ReadShareGroupStateRequestView body = new ReadShareGroupStateRequestView(request.body());
        ReadShareGroupStateResponseView response = new ReadShareGroupStateResponseView();
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (ReadShareGroupStateRequestView.ReadStateData topic : body.topics()) {
            ReadShareGroupStateResponseView.ReadStateResult result = response.addResult().topicId(topic.topicId());
            for (ReadShareGroupStateRequestView.PartitionData partition : topic.partitions()) {
                ReadShareGroupStateResponseView.PartitionResult answer = result.addPartition()
                        .partition(partition.partition());
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), partition.partition());
                answers.add(coordinator.read(key, partition.leaderEpoch()).thenAccept(read -> fill(answer, read)));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }

    private static void fill(ReadShareGroupStateResponseView.PartitionResult answer, ShareCoordinator.ReadResult read) {
        answer.errorCode(read.error().code());
        if (read.error() != Errors.NONE) { // the other fields left at their defaults, as Kafka's error answer has them
            answer.errorMessage(read.message());
            return;
        }
        answer.stateEpoch(read.stateEpoch());
        ShareStateSnapshot snapshot = read.snapshot();
        if (snapshot == null) {
            answer.startOffset(-1);
            return;
        }
        answer.startOffset(snapshot.startOffset());
        for (ShareStateSnapshot.StateBatch batch : snapshot.batches()) {
            answer.addStateBatche().firstOffset(batch.firstOffset()).lastOffset(batch.lastOffset())
                    .deliveryState(batch.state().id()).deliveryCount((short) batch.deliveryCount());
        }
    }
}
