package io.minibroker.broker.admin;

/** Kafka's codes for the resources and sources the config APIs speak of. */
public final class ConfigResources {

    public static final byte TOPIC = 2;
    public static final byte BROKER = 4;

    public static final byte DYNAMIC_TOPIC_CONFIG = 1;
    public static final byte STATIC_BROKER_CONFIG = 4;
    public static final byte DEFAULT_CONFIG = 5;

    private ConfigResources() {
    }
}
