package io.minibroker.broker.transaction;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.InitProducerIdRequestView;
import io.minibroker.protocol.message.view.InitProducerIdResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletionStage;

/**
 * InitProducerId with a transactional id, answered by the {@link TransactionCoordinator}: a new producer id, or the
 * id's producer with its epoch bumped (fencing the instance before). From v3 (KIP-360) a producer may name its
 * current producer id and epoch to have them bumped after an abortable error; naming only one of them is
 * INVALID_REQUEST, as Kafka answers.
 */
public final class TransactionalInitProducerIdHandler implements ApiHandler {

    private static final short PRODUCER_ID_AND_EPOCH_FROM = 3;

    private final TransactionCoordinator coordinator;

    public TransactionalInitProducerIdHandler(TransactionCoordinator coordinator) {
        this.coordinator = coordinator;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        InitProducerIdRequestView body = new InitProducerIdRequestView(request.body());
        long producerId = -1;
        short epoch = -1;
        if (request.version() >= PRODUCER_ID_AND_EPOCH_FROM) {
            producerId = body.producerId(); // a pair with one of them only is refused before (InitProducerIdHandler)
            epoch = body.producerEpoch();
        }
        return coordinator.initProducerId(body.transactionalId(), body.transactionTimeoutMs(), producerId, epoch)
                .thenApply(result -> answer(TransactionErrors.forVersion(result.error(), request.version(),
                                TransactionErrors.INIT_PRODUCER_ID_FENCED_FROM), result.producerId(),
                        result.producerEpoch()));
    }

    private static Struct answer(Errors error, long producerId, short epoch) {
        return new InitProducerIdResponseView().errorCode(error.code()).producerId(producerId).producerEpoch(epoch)
                .struct();
    }
}
