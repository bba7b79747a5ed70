package io.minibroker.broker.produce;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.InitProducerIdRequestView;
import io.minibroker.protocol.message.view.InitProducerIdResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * InitProducerId. For idempotent producers: always a fresh producer id with epoch 0, as Kafka answers a request
 * without a transactional id (bumping a client-named id would let one client take over another's, and an epoch
 * the partitions have already passed would be fenced). A transactional id goes to the transaction coordinator's
 * handler. Producer ids are unique across a cluster's nodes: each node hands out its own range
 * ({@link ProducerIdAllocator}), where Kafka's brokers take blocks from the controller.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private static final short PRODUCER_ID_AND_EPOCH_FROM = 3;

    /** InitProducerId without a transactional id, on the disk thread: a new block of ids is fsynced first. */
    private final ApiHandler idempotent;
    /** InitProducerId with a transactional id: the transaction coordinator's, on its own thread. */
    private final ApiHandler transactional;

    /**
     * @param onDisk what runs a handler on the disk thread; only the idempotent path needs it (the transaction
     *               coordinator runs on its own thread, and would only wait there behind other disk work)
     */
    public InitProducerIdHandler(ProducerIdAllocator ids, ApiHandler transactional,
                                 Function<ApiHandler, ApiHandler> onDisk) {
        this.idempotent = onDisk.apply((context, request) -> CompletableFuture.completedFuture(
                new InitProducerIdResponseView().errorCode(Errors.NONE.code()).producerId(ids.next())
                        .producerEpoch((short) 0).struct()));
        this.transactional = transactional;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        InitProducerIdRequestView body = new InitProducerIdRequestView(request.body());
        // As Kafka, for either path: a producer id without an epoch, or an epoch without one, names no producer.
        // (Below v3 both fields are absent and read -1.)
        if (request.version() >= PRODUCER_ID_AND_EPOCH_FROM
                && (body.producerId() == -1) != (body.producerEpoch() == -1)) {
            return CompletableFuture.completedFuture(new InitProducerIdResponseView()
                    .errorCode(Errors.INVALID_REQUEST.code()).producerId(-1).producerEpoch((short) -1).struct());
        }
        return (body.transactionalId() != null ? transactional : idempotent).handle(context, request);
    }
}
