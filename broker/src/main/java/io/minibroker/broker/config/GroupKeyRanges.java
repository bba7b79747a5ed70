package io.minibroker.broker.config;

import java.util.List;

import static io.minibroker.broker.config.ConfigKey.intKey;

/**
 * Kafka's {@code group.{consumer,share,streams}.min/max.*} broker keys, which bound the group keys of the same names
 * at start-up and a group's own configs ({@code sharegroup/GroupConfigs}) when they change; and their start-up
 * checks, with the messages Kafka 4.3.1's KafkaConfig.fromProps gives. A user who wants a shorter session timeout
 * lowers the min key too, as with Kafka.
 */
public final class GroupKeyRanges {

    public static final ConfigKey<Integer> GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS =
            intKey("group.consumer.min.session.timeout.ms", 45_000, 1);
    public static final ConfigKey<Integer> GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS =
            intKey("group.consumer.max.session.timeout.ms", 60_000, 1);
    public static final ConfigKey<Integer> GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS =
            intKey("group.consumer.min.heartbeat.interval.ms", 5000, 1);
    public static final ConfigKey<Integer> GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS =
            intKey("group.consumer.max.heartbeat.interval.ms", 15_000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_MIN_SESSION_TIMEOUT_MS =
            intKey("group.share.min.session.timeout.ms", 45_000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_MAX_SESSION_TIMEOUT_MS =
            intKey("group.share.max.session.timeout.ms", 60_000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS =
            intKey("group.share.min.heartbeat.interval.ms", 5000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS =
            intKey("group.share.max.heartbeat.interval.ms", 15_000, 1);
    public static final ConfigKey<Integer> GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS =
            intKey("group.share.min.record.lock.duration.ms", 15_000, 1000, 30_000);
    public static final ConfigKey<Integer> GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS =
            intKey("group.share.max.record.lock.duration.ms", 60_000, 30_000, 3_600_000);
    public static final ConfigKey<Integer> GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS =
            intKey("group.share.min.partition.max.record.locks", 100, 100, 2000);
    public static final ConfigKey<Integer> GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS =
            intKey("group.share.max.partition.max.record.locks", 4000, 2000, 10_000);
    public static final ConfigKey<Integer> GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS =
            intKey("group.streams.min.session.timeout.ms", 45_000, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS =
            intKey("group.streams.max.session.timeout.ms", 60_000, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS =
            intKey("group.streams.min.heartbeat.interval.ms", 5000, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS =
            intKey("group.streams.max.heartbeat.interval.ms", 15_000, 1);
    public static final ConfigKey<Integer> GROUP_STREAMS_MAX_STANDBY_REPLICAS =
            intKey("group.streams.max.standby.replicas", 2, 0);

    static final List<ConfigKey<?>> KEYS = List.of(GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS,
            GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS, GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS,
            GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS, GROUP_SHARE_MIN_SESSION_TIMEOUT_MS,
            GROUP_SHARE_MAX_SESSION_TIMEOUT_MS, GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS,
            GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS, GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS,
            GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS, GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS,
            GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS, GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS,
            GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS, GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS,
            GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS, GROUP_STREAMS_MAX_STANDBY_REPLICAS);

    /**
     * A group key and the keys bounding it (min null: no lower key); {@code maxFirst}: Kafka words its upper check
     * the other way round ("max key must be greater than or equal to key"), as for two share keys.
     */
    private record Range(ConfigKey<Integer> value, ConfigKey<Integer> min, ConfigKey<Integer> max, boolean maxFirst) {
    }

    private static final List<Range> RANGES = List.of(
            new Range(BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS, GROUP_CONSUMER_MIN_SESSION_TIMEOUT_MS,
                    GROUP_CONSUMER_MAX_SESSION_TIMEOUT_MS, false),
            new Range(BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS, GROUP_CONSUMER_MIN_HEARTBEAT_INTERVAL_MS,
                    GROUP_CONSUMER_MAX_HEARTBEAT_INTERVAL_MS, false),
            new Range(BrokerConfig.GROUP_SHARE_SESSION_TIMEOUT_MS, GROUP_SHARE_MIN_SESSION_TIMEOUT_MS,
                    GROUP_SHARE_MAX_SESSION_TIMEOUT_MS, false),
            new Range(BrokerConfig.GROUP_SHARE_HEARTBEAT_INTERVAL_MS, GROUP_SHARE_MIN_HEARTBEAT_INTERVAL_MS,
                    GROUP_SHARE_MAX_HEARTBEAT_INTERVAL_MS, false),
            new Range(BrokerConfig.GROUP_STREAMS_SESSION_TIMEOUT_MS, GROUP_STREAMS_MIN_SESSION_TIMEOUT_MS,
                    GROUP_STREAMS_MAX_SESSION_TIMEOUT_MS, false),
            new Range(BrokerConfig.GROUP_STREAMS_HEARTBEAT_INTERVAL_MS, GROUP_STREAMS_MIN_HEARTBEAT_INTERVAL_MS,
                    GROUP_STREAMS_MAX_HEARTBEAT_INTERVAL_MS, false),
            new Range(BrokerConfig.GROUP_SHARE_RECORD_LOCK_DURATION_MS, GROUP_SHARE_MIN_RECORD_LOCK_DURATION_MS,
                    GROUP_SHARE_MAX_RECORD_LOCK_DURATION_MS, true),
            new Range(BrokerConfig.GROUP_SHARE_PARTITION_MAX_RECORD_LOCKS, GROUP_SHARE_MIN_PARTITION_MAX_RECORD_LOCKS,
                    GROUP_SHARE_MAX_PARTITION_MAX_RECORD_LOCKS, true),
            new Range(BrokerConfig.GROUP_STREAMS_NUM_STANDBY_REPLICAS, null, GROUP_STREAMS_MAX_STANDBY_REPLICAS, false));

    /** Session timeout and heartbeat interval keys: Kafka wants the interval below the timeout. */
    private static final List<List<ConfigKey<Integer>>> SESSIONS = List.of(
            List.of(BrokerConfig.GROUP_CONSUMER_SESSION_TIMEOUT_MS, BrokerConfig.GROUP_CONSUMER_HEARTBEAT_INTERVAL_MS),
            List.of(BrokerConfig.GROUP_SHARE_SESSION_TIMEOUT_MS, BrokerConfig.GROUP_SHARE_HEARTBEAT_INTERVAL_MS),
            List.of(BrokerConfig.GROUP_STREAMS_SESSION_TIMEOUT_MS, BrokerConfig.GROUP_STREAMS_HEARTBEAT_INTERVAL_MS));

    private GroupKeyRanges() {
    }

    static void check(BrokerConfig config) {
        for (Range range : RANGES) {
            int value = config.get(range.value());
            int max = config.get(range.max());
            if (range.min() != null && max < config.get(range.min())) {
                throw new ConfigException(atLeast(range.max(), range.min()));
            }
            if (range.min() != null && value < config.get(range.min())) {
                throw new ConfigException(atLeast(range.value(), range.min()));
            }
            if (value > max) {
                throw new ConfigException(range.maxFirst() ? atLeast(range.max(), range.value())
                        : range.value().name() + " must be less than or equal to " + range.max().name());
            }
        }
        for (List<ConfigKey<Integer>> pair : SESSIONS) {
            if (config.get(pair.get(1)) >= config.get(pair.get(0))) {
                throw new ConfigException(pair.get(1).name() + " must be less than " + pair.get(0).name());
            }
        }
    }

    private static String atLeast(ConfigKey<Integer> key, ConfigKey<Integer> bound) {
        return key.name() + " must be greater than or equal to " + bound.name();
    }
}
