package io.minibroker.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import io.minibroker.broker.admin.RuntimeLoggers;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * The broker's loggers in Logback, for DescribeConfigs and IncrementalAlterConfigs of a BROKER_LOGGER resource
 * (found through {@code META-INF/services}). Logback's root logger is Kafka's {@code root}. Logback has no FATAL:
 * it is taken as ERROR, the level log4j's FATAL events would be logged at. When SLF4J is bound to another backend
 * (an application that embeds this module with its own), there are no loggers to list or change.
 */
public final class LogbackLoggers implements RuntimeLoggers {

    @Override
    public Map<String, String> loggers() {
        LoggerContext context = context();
        Map<String, String> levels = new HashMap<>();
        if (context != null) {
            for (Logger logger : context.getLoggerList()) {
                levels.put(kafkaName(logger.getName()), logger.getEffectiveLevel().toString());
            }
        }
        return levels;
    }

    @Override
    public void setLevel(String logger, String level) {
        LoggerContext context = context();
        if (context != null) {
            context.getLogger(logbackName(logger)).setLevel(level.equals("FATAL") ? Level.ERROR : Level.toLevel(level));
        }
    }

    @Override
    public void unsetLevel(String logger) {
        LoggerContext context = context();
        if (context != null && !logger.equals(ROOT)) { // Logback's root must keep a level (Kafka refuses this too)
            context.getLogger(logbackName(logger)).setLevel(null);
        }
    }

    private static LoggerContext context() {
        return LoggerFactory.getILoggerFactory() instanceof LoggerContext logback ? logback : null;
    }

    private static String kafkaName(String logbackName) {
        return logbackName.equals(org.slf4j.Logger.ROOT_LOGGER_NAME) ? ROOT : logbackName;
    }

    private static String logbackName(String kafkaName) {
        return kafkaName.equals(ROOT) ? org.slf4j.Logger.ROOT_LOGGER_NAME : kafkaName;
    }
}
