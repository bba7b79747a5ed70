package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ExpireDelegationTokenRequestView;
import io.minibroker.protocol.message.view.ExpireDelegationTokenResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * ExpireDelegationToken, naming the token by its HMAC, as Kafka's controller answers it: by its owner or a renewer; a
 * negative period removes the token at once (answered with now as its expiry time, as Kafka 4.3.1's controller
 * answers), even an expired one; otherwise a token not yet expired expires the period from now, never past its
 * maximum lifetime. Saved before the answer.
 */
final class ExpireDelegationTokenHandler implements ApiHandler {

    private final DelegationTokens tokens;
    private final LongSupplier clock;

    ExpireDelegationTokenHandler(DelegationTokens tokens, LongSupplier clock) {
        this.tokens = tokens;
        this.clock = clock;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ExpireDelegationTokenRequestView expire = new ExpireDelegationTokenRequestView(request.body());
        Struct refused = refusal(context);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        ExpireDelegationTokenResponseView response = new ExpireDelegationTokenResponseView();
        long now = clock.getAsLong();
        long period = expire.expiryTimePeriodMs();
        DelegationToken token = TokenRequests.find(tokens, expire.hmac());
        Errors error = token == null ? TokenRequests.notFound(tokens)
                : !token.allowedToRenew(context.principal()) ? Errors.DELEGATION_TOKEN_OWNER_MISMATCH
                : period >= 0 && token.expiredAt(now) ? Errors.DELEGATION_TOKEN_EXPIRED
                : Errors.NONE;
        if (error == Errors.NONE && period < 0) {
            error = TokenRequests.saved(() -> tokens.remove(token.tokenId()));
            response.expiryTimestampMs(now);
        } else if (error == Errors.NONE) {
            long expiry = TokenRequests.expiryAfter(token, now, period);
            error = TokenRequests.saved(() -> tokens.put(token.withExpiryTimestamp(expiry)));
            response.expiryTimestampMs(expiry);
        }
        return CompletableFuture.completedFuture(response.errorCode(error.code()).struct());
    }

    /**
     * The answer to a request refused before its token is looked at, or null: Kafka's broker checks who may ask
     * before it forwards the request, and its controller again.
     */
    static Struct refusal(RequestContext context) {
        return TokenRequests.allowed(context) ? null : new ExpireDelegationTokenResponseView()
                .errorCode(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code()).expiryTimestampMs(-1).struct();
    }
}
