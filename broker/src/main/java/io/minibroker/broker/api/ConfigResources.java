package io.minibroker.broker.api;

/** Kafka's codes for the resources and sources the config APIs speak of. */
final class ConfigResources {

    static final byte TOPIC = 2;
    static final byte BROKER = 4;

    static final byte DYNAMIC_TOPIC_CONFIG = 1;
    static final byte STATIC_BROKER_CONFIG = 4;
    static final byte DEFAULT_CONFIG = 5;

    private ConfigResources() {
    }
}
