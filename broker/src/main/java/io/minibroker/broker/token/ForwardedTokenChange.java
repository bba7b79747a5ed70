package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;

/**
 * A cluster broker's CreateDelegationToken, RenewDelegationToken or ExpireDelegationToken, as Kafka's KafkaApis
 * serves them: the checks only the broker can make (how the client signed in: a token must not beget tokens, and
 * not over PLAINTEXT) and those it makes before bothering the controller, then the request goes to the controller,
 * which keeps the tokens and answers.
 */
final class ForwardedTokenChange implements ApiHandler {

    private final BiFunction<RequestContext, Request, Struct> refusal;
    private final ApiHandler controller;

    /**
     * @param refusal the answer to a request refused here, or null to forward it
     * @param controller forwards the request to the controller in an Envelope
     */
    ForwardedTokenChange(BiFunction<RequestContext, Request, Struct> refusal, ApiHandler controller) {
        this.refusal = refusal;
        this.controller = controller;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct refused = refusal.apply(context, request);
        return refused != null ? CompletableFuture.completedFuture(refused) : controller.handle(context, request);
    }
}
