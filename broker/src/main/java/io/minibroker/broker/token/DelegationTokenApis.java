package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.Authorizer;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.CreateDelegationTokenRequestView;
import io.minibroker.protocol.schema.Struct;

import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The delegation token APIs (KIP-48). On a single node and at a cluster's controller, the changes run on the disk
 * thread over the node's tokens (each saves the tokens' file before its answer); a cluster's brokers check what only
 * they can and forward the changes to the controller. DescribeDelegationToken is every broker's, from its tokens or
 * its copy of the controller's, on the event loop. The handlers check the authorizer themselves, as Kafka's do (a
 * token's owner and renewers are not ACLs).
 */
public final class DelegationTokenApis {

    private DelegationTokenApis() {
    }

    /**
     * A CreateDelegationToken's answer when the request fails as a whole (the controller unreachable, the envelope
     * refused), as Kafka's request's error response.
     */
    public static Struct createFailed(Errors error) {
        return CreateDelegationTokenHandler.anonymousFailure(error);
    }

    /**
     * A single node's four APIs.
     *
     * @param authorizer the broker's, or null without one
     * @param wallClockMs the broker's clock: tokens' times are wall-clock times, as Kafka's
     */
    public static void register(SupportedApis apis, BrokerConfig config, DelegationTokens tokens, Authorizer authorizer,
                                LongSupplier wallClockMs, Function<ApiHandler, ApiHandler> onDisk) {
        registerChanges(apis, config, tokens, authorizer, wallClockMs, onDisk);
        apis.add(ApiKey.DESCRIBE_DELEGATION_TOKEN,
                new DescribeDelegationTokenHandler(tokens, new TokenRequests(authorizer)));
    }

    /**
     * The three changes, over this node's tokens: a single node's, or the controller's, to which brokers forward
     * them (then {@code onDisk} also moves the image on, so that every broker takes the change).
     */
    public static void registerChanges(SupportedApis apis, BrokerConfig config, DelegationTokens tokens,
                                       Authorizer authorizer, LongSupplier wallClockMs,
                                       Function<ApiHandler, ApiHandler> onDisk) {
        TokenRequests rules = new TokenRequests(authorizer);
        long expiryTimeMs = config.get(SecurityKeys.DELEGATION_TOKEN_EXPIRY_TIME_MS);
        apis.add(ApiKey.CREATE_DELEGATION_TOKEN, onDisk.apply(new CreateDelegationTokenHandler(tokens, rules,
                        wallClockMs, config.get(SecurityKeys.DELEGATION_TOKEN_MAX_LIFETIME_MS), expiryTimeMs)))
                .add(ApiKey.RENEW_DELEGATION_TOKEN,
                        onDisk.apply(new RenewDelegationTokenHandler(tokens, wallClockMs, expiryTimeMs)))
                .add(ApiKey.EXPIRE_DELEGATION_TOKEN,
                        onDisk.apply(new ExpireDelegationTokenHandler(tokens, wallClockMs)));
    }

    /**
     * A cluster broker's four APIs: the changes checked here, then forwarded by {@code controller}; descriptions
     * from {@code tokens}, its copy of the controller's.
     *
     * @param controller the handler that forwards an API's request to the controller
     */
    public static void registerForwarding(SupportedApis apis, DelegationTokens tokens, Authorizer authorizer,
                                          Function<ApiKey, ApiHandler> controller) {
        TokenRequests rules = new TokenRequests(authorizer);
        apis.add(ApiKey.CREATE_DELEGATION_TOKEN, new ForwardedTokenChange((context, request) ->
                        CreateDelegationTokenHandler.refusal(context,
                                new CreateDelegationTokenRequestView(request.body()), rules),
                        controller.apply(ApiKey.CREATE_DELEGATION_TOKEN)))
                .add(ApiKey.RENEW_DELEGATION_TOKEN, new ForwardedTokenChange(
                        (context, request) -> RenewDelegationTokenHandler.refusal(context),
                        controller.apply(ApiKey.RENEW_DELEGATION_TOKEN)))
                .add(ApiKey.EXPIRE_DELEGATION_TOKEN, new ForwardedTokenChange(
                        (context, request) -> ExpireDelegationTokenHandler.refusal(context),
                        controller.apply(ApiKey.EXPIRE_DELEGATION_TOKEN)))
                .add(ApiKey.DESCRIBE_DELEGATION_TOKEN, new DescribeDelegationTokenHandler(tokens, rules));
    }
}
