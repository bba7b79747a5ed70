package io.minibroker.broker.admin;

import java.util.Map;
import java.util.ServiceLoader;

/**
 * The logging backend's loggers and their levels, which DescribeConfigs of a BROKER_LOGGER resource lists and
 * IncrementalAlterConfigs changes (KIP-412), as Kafka's LoggingController does over log4j. This module logs through
 * SLF4J only and knows no backend: the program ({@code server/}) provides one for Logback through a
 * {@link ServiceLoader}; without one there are no loggers to list or change, as Kafka's no-op controller has none.
 * A level set this way lasts until the process ends, as in Kafka (it is not stored).
 */
public interface RuntimeLoggers {

    /** Kafka's name for the root logger, whatever the backend calls it. */
    String ROOT = "root";

    /** Having no backend: no loggers. */
    RuntimeLoggers NONE = new RuntimeLoggers() {
        @Override
        public Map<String, String> loggers() {
            return Map.of();
        }

        @Override
        public void setLevel(String logger, String level) {
        }

        @Override
        public void unsetLevel(String logger) {
        }
    };

    /** Every logger the backend has (configured or created), with its effective level, and {@link #ROOT}. */
    Map<String, String> loggers();

    /** Sets a logger's level; the logger is one {@link #loggers} lists and the level one of Kafka's six. */
    void setLevel(String logger, String level);

    /** Leaves the logger to inherit its level again; the root logger's goes back to the backend's default. */
    void unsetLevel(String logger);

    /** The backend a {@link ServiceLoader} finds, else {@link #NONE}. */
    static RuntimeLoggers find() {
        return ServiceLoader.load(RuntimeLoggers.class).findFirst().orElse(NONE);
    }
}
