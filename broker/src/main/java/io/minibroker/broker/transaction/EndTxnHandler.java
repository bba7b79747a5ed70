package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.EndTxnRequestView;
import io.minibroker.protocol.message.view.EndTxnResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletionStage;

/**
 * EndTxn: commits or aborts the producer's transaction, answered once the PrepareCommit/PrepareAbort is written
 * (the markers follow). A client sending v5+ uses transaction version 2 (KIP-890): the coordinator bumps the epoch,
 * and the answer names the producer id and epoch to go on with.
 */
public final class EndTxnHandler implements ApiHandler {

    private static final short TRANSACTION_VERSION_2_FROM = 5;

    private final TransactionCoordinator coordinator;

    public EndTxnHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        EndTxnRequestView body = new EndTxnRequestView(request.body());
        return coordinator.endTransaction(body.transactionalId(), body.producerId(), body.producerEpoch(),
                        TransactionResult.of(body.committed()), request.version() >= TRANSACTION_VERSION_2_FROM)
                .thenApply(result -> new EndTxnResponseView()
                        .errorCode(TransactionErrors.forVersion(result.error(), request.version(),
                                TransactionErrors.TXN_REQUEST_FENCED_FROM).code())
                        .producerId(result.producerId()).producerEpoch(result.producerEpoch()).struct());
    }
}
