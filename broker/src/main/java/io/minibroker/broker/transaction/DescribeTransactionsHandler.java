package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeTransactionsRequestView;
import io.minibroker.protocol.message.view.DescribeTransactionsResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeTransactions ({@code kafka-transactions.sh describe}) on a broker that coordinates no transactions:
 * every transactional id asked for is TRANSACTIONAL_ID_NOT_FOUND, as Kafka answers an id it has no state for.
 */
public final class DescribeTransactionsHandler implements ApiHandler {

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeTransactionsResponseView response = new DescribeTransactionsResponseView();
        for (String transactionalId : new DescribeTransactionsRequestView(request.body()).transactionalIds()) {
            response.addTransactionState().transactionalId(transactionalId)
                    .errorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND.code());
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
