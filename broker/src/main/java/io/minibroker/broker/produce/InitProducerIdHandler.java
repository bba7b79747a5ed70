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
 * handler; where there is none (a cluster, for now) it gets UNSUPPORTED_VERSION, which clients treat as fatal
 * rather than retrying.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private final ProducerIdAllocator ids;
    /** InitProducerId with a transactional id; null where no transaction coordinator runs. */
    private final ApiHandler transactional;

    public InitProducerIdHandler(ProducerIdAllocator ids, ApiHandler transactional) {
        this.ids = ids;
        this.transactional = transactional;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        InitProducerIdRequestView body = new InitProducerIdRequestView(request.body());
        InitProducerIdResponseView response = new InitProducerIdResponseView();
        if (body.transactionalId() != null && transactional != null) {
            return transactional.handle(context, request);
        }
        if (body.transactionalId() != null) {
            return CompletableFuture.completedFuture(response.errorCode(Errors.UNSUPPORTED_VERSION.code())
                    .producerEpoch((short) -1).struct());
        }
        return CompletableFuture.completedFuture(response.errorCode(Errors.NONE.code())
                .producerId(ids.next()).producerEpoch((short) 0).struct());
    }
}
