package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.RecordState;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.WriteShareGroupStateRequestView;
import io.minibroker.protocol.message.view.WriteShareGroupStateResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * WriteShareGroupState, from a share-partition leader: each partition's state written through this node's share
 * coordinator, answered once it counts. Unlike Kafka's coordinator, which merges the batches sent into what it holds,
 * the state sent replaces it: this broker's share-partition leaders always send a share partition's whole window.
 */
public final class WriteShareGroupStateHandler implements ApiHandler {

    private final ShareCoordinator coordinator;

    public WriteShareGroupStateHandler(ShareCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        WriteShareGroupStateRequestView body = new WriteShareGroupStateRequestView(request.body());
        WriteShareGroupStateResponseView response = new WriteShareGroupStateResponseView();
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (WriteShareGroupStateRequestView.WriteStateData topic : body.topics()) {
            WriteShareGroupStateResponseView.WriteStateResult result = response.addResult().topicId(topic.topicId());
            for (WriteShareGroupStateRequestView.PartitionData partition : topic.partitions()) {
                WriteShareGroupStateResponseView.PartitionResult answer = result.addPartition()
                        .partition(partition.partition());
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), partition.partition());
                if (!isValid(partition)) {
                    answer.errorCode(Errors.INVALID_REQUEST.code());
                    continue;
                }
                answers.add(coordinator.write(key, snapshotOf(partition), partition.leaderEpoch(),
                                partition.stateEpoch(), partition.deliveryCompleteCount())
                        .thenAccept(written -> answer.errorCode(written.error().code())
                                .errorMessage(written.message())));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }

    /**
     * A start offset (or -1, none) and state batches of offsets in order, each in a state a stored record may have
     * (available, acknowledged, archived: never acquired) with a delivery count.
     */
    private static boolean isValid(WriteShareGroupStateRequestView.PartitionData partition) {
        if (partition.startOffset() < -1) {
            return false;
        }
        for (WriteShareGroupStateRequestView.StateBatch batch : partition.stateBatches()) {
            byte state = batch.deliveryState();
            boolean stored = state == RecordState.AVAILABLE.id() || state == RecordState.ACKNOWLEDGED.id()
                    || state == RecordState.ARCHIVED.id();
            if (!stored || batch.firstOffset() < 0 || batch.lastOffset() < batch.firstOffset()
                    || batch.deliveryCount() < 0) {
                return false;
            }
        }
        return true;
    }

    private static ShareStateSnapshot snapshotOf(WriteShareGroupStateRequestView.PartitionData partition) {
        List<ShareStateSnapshot.StateBatch> batches = new ArrayList<>();
        for (WriteShareGroupStateRequestView.StateBatch batch : partition.stateBatches()) {
            batches.add(new ShareStateSnapshot.StateBatch(batch.firstOffset(), batch.lastOffset(),
                    RecordState.forId(batch.deliveryState()), batch.deliveryCount()));
        }
        return new ShareStateSnapshot(partition.startOffset(), batches);
    }
}
