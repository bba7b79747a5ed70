package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeTransactionsRequestView;
import io.minibroker.protocol.message.view.DescribeTransactionsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletionStage;

/**
 * DescribeTransactions ({@code kafka-transactions.sh describe}): each id's state at its coordinator (this node):
 * state, timeout, start time, producer id and epoch, and the partitions of an open transaction;
 * TRANSACTIONAL_ID_NOT_FOUND for an id it has no state for, NOT_COORDINATOR or COORDINATOR_LOAD_IN_PROGRESS for one
 * it does not coordinate now.
 */
public final class DescribeTransactionsHandler implements ApiHandler {

    private final TransactionCoordinator coordinator;

    public DescribeTransactionsHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        List<String> ids = new DescribeTransactionsRequestView(request.body()).transactionalIds();
        return coordinator.describe(ids).thenApply(descriptions -> {
            DescribeTransactionsResponseView response = new DescribeTransactionsResponseView();
            for (int i = 0; i < ids.size(); i++) {
                TransactionCoordinator.Description description = descriptions.get(i);
                DescribeTransactionsResponseView.TransactionState state = response.addTransactionState()
                        .transactionalId(ids.get(i)).errorCode(description.error().code());
                TransactionMetadata metadata = description.metadata();
                if (metadata == null) {
                    continue;
                }
                state.transactionState(metadata.state().stateName())
                        .transactionTimeoutMs(metadata.timeoutMs())
                        .transactionStartTimeMs(metadata.startTimestamp())
                        .producerId(metadata.producerId())
                        .producerEpoch(metadata.producerEpoch());
                Map<String, List<Integer>> byTopic = new TreeMap<>();
                for (TopicPartition partition : metadata.partitions()) {
                    byTopic.computeIfAbsent(partition.topic(), topic -> new ArrayList<>()).add(partition.partition());
                }
                byTopic.forEach((topic, partitions) -> {
                    partitions.sort(null);
                    state.addTopic().topic(topic).partitions(partitions);
                });
            }
            return response.struct();
        });
    }
}
