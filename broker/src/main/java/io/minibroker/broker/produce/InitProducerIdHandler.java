package io.minibroker.broker.produce;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * InitProducerId for idempotent producers: a fresh producer id with epoch 0, or, when the client names its
 * current id and epoch (KIP-360), the same id with the next epoch (a fresh id once the epoch would overflow).
 * Transactional ids need the transaction coordinator, which is not built yet: such a request gets
 * UNSUPPORTED_VERSION, which clients treat as fatal rather than retrying forever.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private final ProducerIdAllocator ids;

    public InitProducerIdHandler(ProducerIdAllocator ids) {
        this.ids = ids;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct body = request.body();
        Struct response = ApiKey.INIT_PRODUCER_ID.response().newMessage();
        if (body.getString("TransactionalId") != null) {
            return CompletableFuture.completedFuture(response.set("ErrorCode", Errors.UNSUPPORTED_VERSION.code())
                    .set("ProducerEpoch", (short) -1));
        }
        long producerId = body.getInt64("ProducerId");
        short epoch = body.getInt16("ProducerEpoch");
        if (producerId >= 0 && epoch >= 0 && epoch < Short.MAX_VALUE - 1) {
            response.set("ProducerId", producerId).set("ProducerEpoch", (short) (epoch + 1));
        } else {
            response.set("ProducerId", ids.next()).set("ProducerEpoch", (short) 0);
        }
        return CompletableFuture.completedFuture(response.set("ErrorCode", Errors.NONE.code()));
    }
}
