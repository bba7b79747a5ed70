package io.minibroker.broker.token;

import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.authz.AclApisHandler;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.Authorizer;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;

import java.io.IOException;

/**
 * What the four delegation token APIs check alike, as Kafka's KafkaApis checks them: who may ask at all, and the
 * authorizer's say (everything allowed without one, as Kafka's AuthHelper answers without an authorizer); and the
 * steps renewals and expiries share: finding the token, its new expiry time, saving the change.
 */
final class TokenRequests {

    private final Authorizer authorizer;

    /** @param authorizer the broker's, or null without one */
    TokenRequests(Authorizer authorizer) {
        this.authorizer = authorizer;
    }

    /**
     * Kafka's allowTokenRequests: a token is asked for over an authenticated channel, never with a token itself (a
     * token must not beget tokens). So not over PLAINTEXT, nor over SSL without a client certificate; a client signed
     * in with a token is refused too. For a forwarded request, as Kafka's controller: only the token counts, the
     * forwarding broker having checked the client's channel.
     */
    static boolean allowed(RequestContext context) {
        if (context.tokenAuthenticated()) {
            return false;
        }
        if (context.forwarded() || context.sasl() != null) {
            return true;
        }
        return context.tlsPrincipal() != null && !context.tlsPrincipal().equals(KafkaPrincipal.ANONYMOUS);
    }

    /** The token of this HMAC; null if there is none (or tokens are off). */
    static DelegationToken find(DelegationTokens tokens, byte[] hmac) {
        return hmac == null ? null : tokens.byHmac(hmac).map(DelegationTokens.Held::token).orElse(null);
    }

    /** Why a renewal or an expiry found no token: tokens are off, or none has the HMAC, as Kafka's controller. */
    static Errors notFound(DelegationTokens tokens) {
        return tokens.enabled() ? Errors.DELEGATION_TOKEN_NOT_FOUND : Errors.DELEGATION_TOKEN_AUTH_DISABLED;
    }

    /** A change to the tokens, which saves their file. */
    @FunctionalInterface
    interface Change {
        void apply() throws IOException;
    }

    /** Makes the change: NONE, or KAFKA_STORAGE_ERROR if the file could not be written. */
    static Errors saved(Change change) {
        try {
            change.apply();
            return Errors.NONE;
        } catch (IOException e) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
    }

    /**
     * {@code period} from {@code now} without overflowing, as Kafka's controller adds a creation's and an expiry's
     * times (its renewal adds plainly, which only an expiry time near Long.MAX_VALUE would overflow).
     */
    static long after(long now, long period) {
        return now > Long.MAX_VALUE - period ? Long.MAX_VALUE : now + period;
    }

    /** A renewal's or an expiry's new expiry time: {@code period} from {@code now}, never past the token's maximum. */
    static long expiryAfter(DelegationToken token, long now, long period) {
        return Math.min(token.maxTimestamp(), after(now, period));
    }

    boolean authorize(RequestContext context, AclOperation operation, ResourceType type, String name) {
        return authorizer == null
                || authorizer.authorize(context.principal(), AclApisHandler.host(context.clientAddress()), operation,
                type, name);
    }
}
