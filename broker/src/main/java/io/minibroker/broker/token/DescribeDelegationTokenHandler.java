package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.DescribeDelegationTokenRequestView;
import io.minibroker.protocol.message.view.DescribeDelegationTokenRequestView.DescribeDelegationTokenOwner;
import io.minibroker.protocol.message.view.DescribeDelegationTokenResponseView;
import io.minibroker.protocol.message.view.DescribeDelegationTokenResponseView.DescribedDelegationToken;
import io.minibroker.protocol.schema.Struct;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * DescribeDelegationToken, as Kafka's KafkaApis answers it from the broker's tokens, HMACs included: every token (no
 * owners named, null) or those an owner named owns, asked for or may renew (an empty list: none); of them, those the
 * principal asking owns, asked for or may renew, or may DESCRIBE as a DELEGATION_TOKEN resource (the token id), or
 * whose owner it may DESCRIBE_TOKENS as a USER resource. Expired tokens are listed until the expiry check removes
 * them, as in Kafka.
 */
final class DescribeDelegationTokenHandler implements ApiHandler {

    private final DelegationTokens tokens;
    private final TokenRequests rules;

    DescribeDelegationTokenHandler(DelegationTokens tokens, TokenRequests rules) {
        this.tokens = tokens;
        this.rules = rules;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        DescribeDelegationTokenResponseView response = new DescribeDelegationTokenResponseView();
        if (!TokenRequests.allowed(context)) {
            return answer(response, Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED);
        }
        if (!tokens.enabled()) {
            return answer(response, Errors.DELEGATION_TOKEN_AUTH_DISABLED);
        }
        List<DescribeDelegationTokenOwner> named = new DescribeDelegationTokenRequestView(request.body()).owners();
        List<KafkaPrincipal> owners = named == null ? null
                : named.stream().map(o -> new KafkaPrincipal(o.principalType(), o.principalName())).toList();
        for (DelegationTokens.Held held : tokens.all()) {
            DelegationToken token = held.token();
            if ((owners == null || owners.stream().anyMatch(token::ownerOrRenewer))
                    && visible(context, token)) {
                add(response, held);
            }
        }
        return answer(response, Errors.NONE);
    }

    private boolean visible(RequestContext context, DelegationToken token) {
        return token.ownerOrRenewer(context.principal())
                || rules.authorize(context, AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, token.tokenId())
                || rules.authorize(context, AclOperation.DESCRIBE_TOKENS, ResourceType.USER, token.owner().toString());
    }

    private static void add(DescribeDelegationTokenResponseView response, DelegationTokens.Held held) {
        DelegationToken token = held.token();
        DescribedDelegationToken described = response.addToken()
                .principalType(token.owner().principalType()).principalName(token.owner().name())
                .tokenRequesterPrincipalType(token.requester().principalType())
                .tokenRequesterPrincipalName(token.requester().name())
                .issueTimestamp(token.issueTimestamp()).expiryTimestamp(token.expiryTimestamp())
                .maxTimestamp(token.maxTimestamp()).tokenId(token.tokenId()).hmac(held.hmac());
        token.renewers().forEach(renewer -> described.addRenewer()
                .principalType(renewer.principalType()).principalName(renewer.name()));
    }

    private static CompletionStage<Struct> answer(DescribeDelegationTokenResponseView response, Errors error) {
        return CompletableFuture.completedFuture(response.errorCode(error.code()).struct());
    }
}
