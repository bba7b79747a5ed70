package io.minibroker.broker.admin;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.UnregisterBrokerRequestView;
import io.minibroker.protocol.message.view.UnregisterBrokerResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntPredicate;

/**
 * UnregisterBroker ({@code Admin.unregisterBroker}, {@code kafka-cluster.sh unregister}) where the registrations are
 * kept: at a cluster's controller (brokers forward it there) and on a single node, its own. Answered as Kafka 4.3.1's
 * controller answers (ReplicationControlManager.unregisterBroker): any registered broker is unregistered, live or
 * not; an unknown id is BROKER_ID_NOT_REGISTERED with Kafka's message.
 */
public final class UnregisterBrokerHandler implements ApiHandler {

    private final IntPredicate unregister;

    /** @param unregister unregisters a broker by id, answering false if it was not registered */
    public UnregisterBrokerHandler(IntPredicate unregister) {
        this.unregister = unregister;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        int brokerId = new UnregisterBrokerRequestView(request.body()).brokerId();
        UnregisterBrokerResponseView response = new UnregisterBrokerResponseView();
        if (!unregister.test(brokerId)) {
            response.errorCode(Errors.BROKER_ID_NOT_REGISTERED.code())
                    .errorMessage("Broker ID " + brokerId + " is not currently registered");
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
