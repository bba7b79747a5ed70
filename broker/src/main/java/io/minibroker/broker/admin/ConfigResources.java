package io.minibroker.broker.admin;

/** Kafka's codes for the resources and sources the config APIs speak of. */
public final class ConfigResources {

    public static final byte TOPIC = 2;
    public static final byte BROKER = 4;
    public static final byte BROKER_LOGGER = 8;
    /** Kafka's ConfigResource.Type.CLIENT_METRICS (KIP-714 subscriptions). */
    public static final byte CLIENT_METRICS = 16;
    /** Kafka's ConfigResource.Type.GROUP (group configs, KIP-848). */
    public static final byte GROUP = 32;

    public static final byte DYNAMIC_TOPIC_CONFIG = 1;
    /** A dynamic config set for this broker (resource name its id). */
    public static final byte DYNAMIC_BROKER_CONFIG = 2;
    /** A dynamic config set for every broker (resource name ""). */
    public static final byte DYNAMIC_DEFAULT_BROKER_CONFIG = 3;
    public static final byte STATIC_BROKER_CONFIG = 4;
    public static final byte DEFAULT_CONFIG = 5;
    /** A logger's level (BROKER_LOGGER). */
    public static final byte DYNAMIC_BROKER_LOGGER_CONFIG = 6;
    /** Kafka's ConfigSource DYNAMIC_CLIENT_METRICS_CONFIG: a client metrics subscription's own config. */
    public static final byte DYNAMIC_CLIENT_METRICS_CONFIG = 7;
    /** Kafka's ConfigSource DYNAMIC_GROUP_CONFIG: a group's own config. */
    public static final byte DYNAMIC_GROUP_CONFIG = 8;

    private ConfigResources() {
    }

    /** One of Kafka's ConfigResource.Type codes other than UNKNOWN's (0). */
    static boolean isKnown(byte type) {
        return type == TOPIC || type == BROKER || type == BROKER_LOGGER || type == CLIENT_METRICS || type == GROUP;
    }

    /** A BROKER or BROKER_LOGGER resource: what the broker a change reaches preprocesses, as Kafka's brokers do. */
    static boolean isBrokers(byte type) {
        return type == BROKER || type == BROKER_LOGGER;
    }
}
