package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.RenewDelegationTokenRequestView;
import io.minibroker.protocol.message.view.RenewDelegationTokenResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * RenewDelegationToken, naming the token by its HMAC, as Kafka's controller answers it: by its owner or a renewer,
 * while it has not expired, to the request's period from now (at most {@code delegation.token.expiry.time.ms}, that
 * when the request asks for none) and never past its maximum lifetime. Saved before the answer.
 */
final class RenewDelegationTokenHandler implements ApiHandler {

    private final DelegationTokens tokens;
    private final LongSupplier clock;
    private final long expiryTimeMs;

    RenewDelegationTokenHandler(DelegationTokens tokens, LongSupplier clock, long expiryTimeMs) {
        this.tokens = tokens;
        this.clock = clock;
        this.expiryTimeMs = expiryTimeMs;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        RenewDelegationTokenRequestView renew = new RenewDelegationTokenRequestView(request.body());
        Struct refused = refusal(context);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        RenewDelegationTokenResponseView response = new RenewDelegationTokenResponseView();
        long now = clock.getAsLong();
        DelegationToken token = TokenRequests.find(tokens, renew.hmac());
        Errors error = token == null ? TokenRequests.notFound(tokens)
                : token.expiredAt(now) ? Errors.DELEGATION_TOKEN_EXPIRED
                : !token.allowedToRenew(context.principal()) ? Errors.DELEGATION_TOKEN_OWNER_MISMATCH
                : Errors.NONE;
        if (error == Errors.NONE) {
            long period = renew.renewPeriodMs() > 0 ? Math.min(expiryTimeMs, renew.renewPeriodMs()) : expiryTimeMs;
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
        return TokenRequests.allowed(context) ? null : new RenewDelegationTokenResponseView()
                .errorCode(Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED.code()).expiryTimestampMs(-1).struct();
    }
}
