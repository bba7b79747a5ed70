package io.minibroker.server;

import io.minibroker.broker.admin.RuntimeLoggers;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** The BROKER_LOGGER resource's backend: Logback's loggers, found as the broker module looks for them. */
class LogbackLoggersTest {

    private static final String LOGGER = "io.minibroker.server.LogbackLoggersTest.probe";

    private final RuntimeLoggers loggers = RuntimeLoggers.find();

    @AfterEach
    void unset() {
        loggers.unsetLevel(LOGGER);
    }

    @Test
    void theBrokerFindsLogbackAndListsEveryLoggerWithItsEffectiveLevelAndTheRootAsKafkaNamesIt() {
        LoggerFactory.getLogger(LOGGER);
        assertThat(loggers).isInstanceOf(LogbackLoggers.class);
        String rootLevel = loggers.loggers().get("root");
        assertThat(rootLevel).isNotNull();
        assertThat(loggers.loggers()).containsEntry(LOGGER, rootLevel).doesNotContainKey("ROOT");
    }

    @Test
    void aLevelSetHoldsUntilUnsetThenTheLoggerInheritsAgain() {
        LoggerFactory.getLogger(LOGGER);
        String inherited = loggers.loggers().get(LOGGER);

        loggers.setLevel(LOGGER, "TRACE");
        assertThat(loggers.loggers()).containsEntry(LOGGER, "TRACE");
        assertThat(LoggerFactory.getLogger(LOGGER).isTraceEnabled()).isTrue();
        loggers.setLevel(LOGGER, "FATAL");
        assertThat(loggers.loggers()).as("Logback has no FATAL").containsEntry(LOGGER, "ERROR");

        loggers.unsetLevel(LOGGER);
        assertThat(loggers.loggers()).containsEntry(LOGGER, inherited);
    }
}
