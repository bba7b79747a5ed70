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

/**
 * InitProducerId. For idempotent producers: always a fresh producer id with epoch 0, as Kafka answers a request
 * without a transactional id (bumping a client-named id would let one client take over another's, and an epoch
 * the partitions have already passed would be fenced). A transactional id goes to the transaction coordinator's
 * handler. Producer ids are unique across a cluster's nodes: each node hands out its own range
 * ({@link ProducerIdAllocator}), where Kafka's brokers take blocks from the controller.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private final ProducerIdAllocator ids;
    /** InitProducerId with a transactional id: the transaction coordinator's. */
    private final ApiHandler transactional;

    public InitProducerIdHandler(ProducerIdAllocator ids, ApiHandler transactional) {
        this.ids = ids;
        this.transactional = transactional;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        InitProducerIdRequestView body = new InitProducerIdRequestView(request.body());
        if (body.transactionalId() != null) {
            return transactional.handle(context, request);
        }
        return CompletableFuture.completedFuture(new InitProducerIdResponseView().errorCode(Errors.NONE.code())
                .producerId(ids.next()).producerEpoch((short) 0).struct());
    }
}
