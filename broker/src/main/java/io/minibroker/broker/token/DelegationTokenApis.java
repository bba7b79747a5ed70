package io.minibroker.broker.token;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.authz.Authorizer;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.security.DelegationTokens;
import io.minibroker.protocol.message.ApiKey;

import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The delegation token APIs (KIP-48) over a node's tokens: the changes on the disk thread (each saves the tokens'
 * file before its answer), DescribeDelegationToken on the event loop. They check the authorizer themselves, as
 * Kafka's handlers do (a token's owner and renewers are not ACLs).
 */
public final class DelegationTokenApis {

    private DelegationTokenApis() {
    }

    /**
     * @param authorizer the broker's, or null without one
     * @param wallClockMs the broker's clock: tokens' times are wall-clock times, as Kafka's
     */
    public static void register(SupportedApis apis, BrokerConfig config, DelegationTokens tokens, Authorizer authorizer,
                                LongSupplier wallClockMs, Function<ApiHandler, ApiHandler> onDisk) {
        TokenRequests rules = new TokenRequests(authorizer);
        long expiryTimeMs = config.get(SecurityKeys.DELEGATION_TOKEN_EXPIRY_TIME_MS);
        apis.add(ApiKey.CREATE_DELEGATION_TOKEN, onDisk.apply(new CreateDelegationTokenHandler(tokens, rules,
                        wallClockMs, config.get(SecurityKeys.DELEGATION_TOKEN_MAX_LIFETIME_MS), expiryTimeMs)))
                .add(ApiKey.RENEW_DELEGATION_TOKEN,
                        onDisk.apply(new RenewDelegationTokenHandler(tokens, wallClockMs, expiryTimeMs)))
                .add(ApiKey.EXPIRE_DELEGATION_TOKEN,
                        onDisk.apply(new ExpireDelegationTokenHandler(tokens, wallClockMs)))
                .add(ApiKey.DESCRIBE_DELEGATION_TOKEN, new DescribeDelegationTokenHandler(tokens, rules));
    }
}
