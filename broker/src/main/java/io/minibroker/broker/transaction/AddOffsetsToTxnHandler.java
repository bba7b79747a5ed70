package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddOffsetsToTxnRequestView;
import io.minibroker.protocol.message.view.AddOffsetsToTxnResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.ToIntFunction;

/**
 * AddOffsetsToTxn ({@code sendOffsetsToTransaction}): adds the group's partition of {@code __consumer_offsets} to
 * the transaction, so its marker makes the offsets committed there by TxnOffsetCommit visible or drops them. Which
 * partition a group's offsets go to is the group coordinator's business, given here as a function.
 */
public final class AddOffsetsToTxnHandler implements ApiHandler {

    private final TransactionCoordinator coordinator;
    private final ToIntFunction<String> offsetsPartitionOfGroup;

    public AddOffsetsToTxnHandler(TransactionCoordinator coordinator, ToIntFunction<String> offsetsPartitionOfGroup) {
        this.coordinator = coordinator;
        this.offsetsPartitionOfGroup = offsetsPartitionOfGroup;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        AddOffsetsToTxnRequestView body = new AddOffsetsToTxnRequestView(request.body());
        TopicPartition offsets = new TopicPartition(InternalTopics.CONSUMER_OFFSETS,
                offsetsPartitionOfGroup.applyAsInt(body.groupId()));
        return coordinator.addPartitions(body.transactionalId(), body.producerId(), body.producerEpoch(),
                        List.of(offsets), (short) 0)
                .thenApply(error -> new AddOffsetsToTxnResponseView().errorCode(TransactionErrors.forVersion(error,
                        request.version(), TransactionErrors.TXN_REQUEST_FENCED_FROM).code()).struct());
    }
}
