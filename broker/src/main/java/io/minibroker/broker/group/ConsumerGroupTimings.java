package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.sharegroup.GroupConfigs;

/**
 * A KIP-848 consumer group's heartbeat interval and session timeout: the group configs
 * {@code consumer.heartbeat.interval.ms} and {@code consumer.session.timeout.ms} where the broker keeps group configs,
 * else the broker's {@code group.consumer.heartbeat.interval.ms} and {@code group.consumer.session.timeout.ms}.
 */
public interface ConsumerGroupTimings {

    int consumerHeartbeatIntervalMs(String groupId);

    int consumerSessionTimeoutMs(String groupId);

    /** Every group on the broker's keys. */
    static ConsumerGroupTimings of(BrokerConfig config) {
        int heartbeat = config.get(BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS);
        int session = config.get(BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS);
        return new ConsumerGroupTimings() {
            @Override
            public int consumerHeartbeatIntervalMs(String groupId) {
                return heartbeat;
            }

            @Override
            public int consumerSessionTimeoutMs(String groupId) {
                return session;
            }
        };
    }

    /** Each group on its own configs where it has them, else on the broker's keys. */
    static ConsumerGroupTimings of(GroupConfigs configs) {
        return new ConsumerGroupTimings() {
            @Override
            public int consumerHeartbeatIntervalMs(String groupId) {
                return configs.consumerHeartbeatIntervalMs(groupId);
            }

            @Override
            public int consumerSessionTimeoutMs(String groupId) {
                return configs.consumerSessionTimeoutMs(groupId);
            }
        };
    }
}
