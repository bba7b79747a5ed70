package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryRequestView;
import io.minibroker.protocol.message.view.ReadShareGroupStateSummaryResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ReadShareGroupStateSummary, from a group coordinator (DescribeShareGroupOffsets): each partition's start offset,
 * epochs and, from v1, completed deliveries, as Kafka's share coordinator answers them (start offset -1 with no
 * state); the leader epoch sent fences nothing. Or the coordinator's error (NOT_COORDINATOR, INVALID_REQUEST).
 */
public final class ReadShareGroupStateSummaryHandler implements ApiHandler {

    private final ShareCoordinator coordinator;

    public ReadShareGroupStateSummaryHandler(ShareCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ReadShareGroupStateSummaryRequestView body = new ReadShareGroupStateSummaryRequestView(request.body());
        ReadShareGroupStateSummaryResponseView response = new ReadShareGroupStateSummaryResponseView();
        List<CompletableFuture<Void>> answers = new ArrayList<>();
        for (ReadShareGroupStateSummaryRequestView.ReadStateSummaryData topic : body.topics()) {
            ReadShareGroupStateSummaryResponseView.ReadStateSummaryResult result = response.addResult()
                    .topicId(topic.topicId());
            for (ReadShareGroupStateSummaryRequestView.PartitionData partition : topic.partitions()) {
                ReadShareGroupStateSummaryResponseView.PartitionResult answer = result.addPartition()
                        .partition(partition.partition());
                SharePartitionKey key = new SharePartitionKey(body.groupId(), topic.topicId(), partition.partition());
                answers.add(coordinator.summary(key).thenAccept(summary -> answer.errorCode(summary.error().code())
                        .startOffset(summary.startOffset()).leaderEpoch(summary.leaderEpoch())
                        .stateEpoch(summary.stateEpoch()).deliveryCompleteCount(summary.deliveryCompleteCount())));
            }
        }
        return CompletableFuture.allOf(answers.toArray(CompletableFuture[]::new)).thenApply(done -> response.struct());
    }
}
