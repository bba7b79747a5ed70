package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.sharegroup.GroupConfigs;

/**
 * A KIP-1071 streams group's heartbeat interval, session timeout and standby replicas: the group configs
 * {@code streams.heartbeat.interval.ms}, {@code streams.session.timeout.ms} and {@code streams.num.standby.replicas}
 * where the broker keeps group configs, else the broker's {@code group.streams.*} keys.
 */
public interface StreamsGroupSettings {

    int heartbeatIntervalMs(String groupId);

    int sessionTimeoutMs(String groupId);

    int numStandbyReplicas(String groupId);

    /** Every group on the broker's keys. */
    static StreamsGroupSettings of(BrokerConfig config) {
        int heartbeat = config.get(BrokerConfig.GROUP_STREAMS_HEARTBEAT_INTERVAL_MS);
        int session = config.get(BrokerConfig.GROUP_STREAMS_SESSION_TIMEOUT_MS);
        int standbys = config.get(BrokerConfig.GROUP_STREAMS_NUM_STANDBY_REPLICAS);
        return new StreamsGroupSettings() {
            @Override
            public int heartbeatIntervalMs(String groupId) {
                return heartbeat;
            }

            @Override
            public int sessionTimeoutMs(String groupId) {
                return session;
            }

            @Override
            public int numStandbyReplicas(String groupId) {
                return standbys;
            }
        };
    }

    /** Each group on its own configs where it has them, else on the broker's keys. */
    static StreamsGroupSettings of(GroupConfigs configs) {
        return new StreamsGroupSettings() {
            @Override
            public int heartbeatIntervalMs(String groupId) {
                return configs.streamsHeartbeatIntervalMs(groupId);
            }

            @Override
            public int sessionTimeoutMs(String groupId) {
                return configs.streamsSessionTimeoutMs(groupId);
            }

            @Override
            public int numStandbyReplicas(String groupId) {
                return configs.streamsNumStandbyReplicas(groupId);
            }
        };
    }
}
