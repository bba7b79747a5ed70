package io.minibroker.broker.replica;

import io.minibroker.broker.config.BrokerConfig;

/**
 * How a follower fetches from its leaders, Kafka's {@code replica.fetch.*} keys: how long a fetch parks at the leader
 * ({@code waitMaxMs}) for how many bytes ({@code minBytes}), at most how many bytes a partition's part
 * ({@code maxBytes}) and the whole answer ({@code responseMaxBytes}) may hold, and how long to pause after a failed
 * fetch ({@code backoffMs}).
 */
public record FetcherSettings(int waitMaxMs, int minBytes, int maxBytes, int responseMaxBytes, long backoffMs) {

    /** The settings a broker's configuration gives. */
    public static FetcherSettings of(BrokerConfig config) {
        return new FetcherSettings(config.get(BrokerConfig.REPLICA_FETCH_WAIT_MAX_MS),
                config.get(BrokerConfig.REPLICA_FETCH_MIN_BYTES),
                config.get(BrokerConfig.REPLICA_FETCH_MAX_BYTES),
                config.get(BrokerConfig.REPLICA_FETCH_RESPONSE_MAX_BYTES),
                config.get(BrokerConfig.REPLICA_FETCH_BACKOFF_MS));
    }
}
