package io.minibroker.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator.ExecutionStatus;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

import static org.assertj.core.api.Assertions.assertThat;

class DefaultLoggingTest {

    @Test
    void withoutAConfigurationFileItLogsInfoToStandardOutAndKeepsNettyQuiet() {
        LoggerContext loggers = new LoggerContext();

        ExecutionStatus status = new DefaultLogging().configure(loggers);

        assertThat(status).isEqualTo(ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        ch.qos.logback.classic.Logger root = loggers.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(root.getAppender("STDOUT")).isNotNull();
        assertThat(loggers.getLogger("io.netty").getLevel()).isEqualTo(Level.WARN);
    }

    @Test
    void aNamedConfigurationFileWins() {
        String before = System.getProperty("logback.configurationFile");
        System.setProperty("logback.configurationFile", "somewhere/logback.xml");
        try {
            LoggerContext loggers = new LoggerContext();

            ExecutionStatus status = new DefaultLogging().configure(loggers);

            assertThat(status).isEqualTo(ExecutionStatus.INVOKE_NEXT_IF_ANY);
            assertThat(loggers.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDOUT")).isNull();
        } finally {
            if (before == null) {
                System.clearProperty("logback.configurationFile");
            } else {
                System.setProperty("logback.configurationFile", before);
            }
        }
    }
}
