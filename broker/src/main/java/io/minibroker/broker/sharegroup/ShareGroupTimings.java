package io.minibroker.broker.sharegroup;

import io.minibroker.broker.config.BrokerConfig;

/**
 * A share group's heartbeat interval and session timeout: the group configs {@code share.heartbeat.interval.ms} and
 * {@code share.session.timeout.ms} where the broker keeps group configs, else the broker's
 * {@code group.share.heartbeat.interval.ms} and {@code group.share.session.timeout.ms}.
 */
public interface ShareGroupTimings {

    int heartbeatIntervalMs(String groupId);

    int sessionTimeoutMs(String groupId);

    /** Every group on the broker's keys. */
    static ShareGroupTimings of(BrokerConfig config) {
        int heartbeat = config.get(BrokerConfig.GROUP_SHARE_HEARTBEAT_INTERVAL_MS);
        int session = config.get(BrokerConfig.GROUP_SHARE_SESSION_TIMEOUT_MS);
        return new ShareGroupTimings() {
            @Override
            public int heartbeatIntervalMs(String groupId) {
                return heartbeat;
            }

            @Override
            public int sessionTimeoutMs(String groupId) {
                return session;
            }
        };
    }
}
