package io.minibroker.broker.token;

import io.minibroker.broker.security.DelegationTokens;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;

/**
 * Kafka's delegation token expiry check, every {@code delegation.token.expiry.check.interval.ms}: on a single node,
 * and on a cluster's controller, whose removals reach the brokers with its image (Kafka's controller writes a
 * RemoveDelegationTokenRecord for each). A token removed no longer signs anyone in.
 */
public final class ExpiredTokens {

    private static final Logger LOG = LoggerFactory.getLogger(ExpiredTokens.class);

    private ExpiredTokens() {
    }

    /**
     * Removes the tokens expired at {@code nowMs}, then runs {@code afterRemoval} if there were any; a failure to save
     * is logged, and the next check tries again.
     */
    public static void remove(DelegationTokens tokens, long nowMs, Runnable afterRemoval) {
        try {
            int removed = tokens.removeExpired(nowMs);
            if (removed > 0) {
                LOG.info("Removed {} expired delegation tokens", removed);
                afterRemoval.run();
            }
        } catch (IOException e) {
            LOG.error("Could not save the delegation tokens after removing the expired ones; retried at the next"
                    + " check", e);
        }
    }
}
