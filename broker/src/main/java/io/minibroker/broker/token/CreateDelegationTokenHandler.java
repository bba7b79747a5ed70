package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.authz.AclOperation;
import io.minibroker.broker.authz.ResourceType;
import io.minibroker.broker.security.DelegationToken;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.broker.security.KafkaPrincipal;
import io.minibroker.broker.topic.TopicIds;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreateDelegationTokenRequestView;
import io.minibroker.protocol.message.view.CreateDelegationTokenRequestView.CreatableRenewers;
import io.minibroker.protocol.message.view.CreateDelegationTokenResponseView;
import io.minibroker.protocol.schema.Struct;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;

/**
 * CreateDelegationToken ({@code kafka-delegation-tokens --create}, Admin.createDelegationToken), as Kafka's KafkaApis
 * and controller answer it: a token for the requester, or with KIP-373 for another owner when the requester may
 * CREATE_TOKENS on that user; renewers must be users. Its expiry is {@code delegation.token.expiry.time.ms} from now
 * and its maximum lifetime the request's, capped by {@code delegation.token.max.lifetime.ms} (the cap when the
 * request asks for none, -1). Saved before the answer: registered on the disk thread.
 */
final class CreateDelegationTokenHandler implements ApiHandler {

    private final DelegationTokens tokens;
    private final TokenRequests rules;
    private final LongSupplier clock;
    private final long maxLifetimeMs;
    private final long expiryTimeMs;

    CreateDelegationTokenHandler(DelegationTokens tokens, TokenRequests rules, LongSupplier clock,
                                 long maxLifetimeMs, long expiryTimeMs) {
        this.tokens = tokens;
        this.rules = rules;
        this.clock = clock;
        this.maxLifetimeMs = maxLifetimeMs;
        this.expiryTimeMs = expiryTimeMs;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        CreateDelegationTokenRequestView create = new CreateDelegationTokenRequestView(request.body());
        Struct refused = refusal(context, create, rules);
        if (refused != null) {
            return CompletableFuture.completedFuture(refused);
        }
        KafkaPrincipal owner = owner(context, create);
        CreateDelegationTokenResponseView response = principals(owner, context.principal());
        // Tokens being off is Kafka's controller's answer, not its broker's: the times stay 0, not -1.
        Errors error = tokens.enabled() ? create(create, owner, context.principal(), response)
                : Errors.DELEGATION_TOKEN_AUTH_DISABLED;
        return CompletableFuture.completedFuture(response.errorCode(error.code()).struct());
    }

    /**
     * The answer to a request refused before any token is looked at, or null: what Kafka's broker checks before it
     * forwards the request, and its controller again (the owner's type, who may ask, for whom, the renewers' type).
     */
    static Struct refusal(RequestContext context, CreateDelegationTokenRequestView create, TokenRequests rules) {
        String ownerName = create.ownerPrincipalName();
        if (ownerName != null && !ownerName.isEmpty() && create.ownerPrincipalType() == null) {
            // v3's owner type is nullable, but Kafka's KafkaPrincipal refuses a null type: its handler throws, and the
            // request's error response names ANONYMOUS as owner and requester.
            return anonymousFailure(Errors.UNKNOWN_SERVER_ERROR);
        }
        KafkaPrincipal owner = owner(context, create);
        Errors error = refusal(context, create, owner, rules);
        return error == Errors.NONE ? null : failure(owner, context.principal()).errorCode(error.code()).struct();
    }

    /** The token's owner: the one the request names (KIP-373), else the requester. */
    private static KafkaPrincipal owner(RequestContext context, CreateDelegationTokenRequestView create) {
        String ownerName = create.ownerPrincipalName();
        return ownerName == null || ownerName.isEmpty() ? context.principal()
                : new KafkaPrincipal(create.ownerPrincipalType(), ownerName);
    }

    /** The answer's principals; the times, id and HMAC left as Kafka's controller leaves them on an error. */
    private static CreateDelegationTokenResponseView principals(KafkaPrincipal owner, KafkaPrincipal requester) {
        return new CreateDelegationTokenResponseView()
                .principalType(owner.principalType()).principalName(owner.name())
                .tokenRequesterPrincipalType(requester.principalType()).tokenRequesterPrincipalName(requester.name())
                .tokenId("").hmac(new byte[0]);
    }

    /**
     * Kafka's broker's refusals (CreateDelegationTokenResponse.prepareResponse) keep the principals and answer -1
     * for the times, an empty id and HMAC.
     */
    private static CreateDelegationTokenResponseView failure(KafkaPrincipal owner, KafkaPrincipal requester) {
        return principals(owner, requester).issueTimestampMs(-1).expiryTimestampMs(-1).maxTimestampMs(-1);
    }

    /**
     * Kafka's CreateDelegationTokenRequest.getErrorResponse: the failure with ANONYMOUS as owner and requester, as
     * for a request that could not be read or forwarded.
     */
    static Struct anonymousFailure(Errors error) {
        return failure(KafkaPrincipal.ANONYMOUS, KafkaPrincipal.ANONYMOUS).errorCode(error.code()).struct();
    }

    private static Errors refusal(RequestContext context, CreateDelegationTokenRequestView create,
                                  KafkaPrincipal owner, TokenRequests rules) {
        if (!TokenRequests.allowed(context)) {
            return Errors.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED;
        }
        if (!owner.equals(context.principal())
                && !rules.authorize(context, AclOperation.CREATE_TOKENS, ResourceType.USER, owner.toString())) {
            return Errors.DELEGATION_TOKEN_AUTHORIZATION_FAILED;
        }
        if (create.renewers().stream().anyMatch(r -> !KafkaPrincipal.USER_TYPE.equals(r.principalType()))) {
            return Errors.INVALID_PRINCIPAL_TYPE;
        }
        return Errors.NONE;
    }

    private Errors create(CreateDelegationTokenRequestView create, KafkaPrincipal owner, KafkaPrincipal requester,
                          CreateDelegationTokenResponseView response) {
        long now = clock.getAsLong();
        long lifetime = create.maxLifetimeMs() > 0 ? Math.min(maxLifetimeMs, create.maxLifetimeMs()) : maxLifetimeMs;
        long maxTimestamp = TokenRequests.after(now, lifetime);
        long expiryTimestamp = Math.min(maxTimestamp, TokenRequests.after(now, expiryTimeMs));
        List<KafkaPrincipal> renewers = new ArrayList<>();
        for (CreatableRenewers renewer : create.renewers()) {
            renewers.add(new KafkaPrincipal(renewer.principalType(), renewer.principalName()));
        }
        DelegationToken token = new DelegationToken(TopicIds.toText(TopicIds.random()), owner, requester, renewers,
                now, maxTimestamp, expiryTimestamp);
        DelegationTokens.Held held;
        try {
            held = tokens.put(token);
        } catch (IOException e) {
            return Errors.KAFKA_STORAGE_ERROR;
        }
        response.issueTimestampMs(now).expiryTimestampMs(expiryTimestamp).maxTimestampMs(maxTimestamp)
                .tokenId(token.tokenId()).hmac(held.hmac());
        return Errors.NONE;
    }
}
