package io.minibroker.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import org.slf4j.Logger;

/**
 * The server distribution's logging (bin/minibroker, the image, and whatever has this module on its class path)
 * when nobody configured Logback: one line per event on standard output, in Kafka's layout, Netty's chatter above
 * WARN only. Logback finds it through {@code META-INF/services}. A {@code logback.xml} or {@code logback-test.xml}
 * on the class path, or a file named by {@code -Dlogback.configurationFile}, wins. The broker library itself
 * carries neither Logback nor this class, so that an application embedding it keeps its own backend and set-up.
 *
 * <p>Why code and not a {@code logback.xml}: parsing XML loads Logback's configuration machinery and an XML
 * parser, which cost a cold start about 80 ms of its 440 (measured with {@code EmbeddedBroker.start()} in a fresh
 * JVM); a container's start feels that.
 */
public final class DefaultLogging extends ContextAwareBase implements Configurator {

    private static final String CONFIG_FILE_PROPERTY = "logback.configurationFile";
    private static final String PATTERN = "[%d{\"yyyy-MM-dd HH:mm:ss,SSS\"}] %-5level %msg \\(%logger{0}\\)%n";

    @Override
    public ExecutionStatus configure(LoggerContext loggers) {
        if (applicationConfiguresLogback()) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY; // Logback's own file lookup comes next and reads it
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(loggers);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(loggers);
        console.setName("STDOUT");
        console.setEncoder(encoder);
        console.start();
        ch.qos.logback.classic.Logger root = loggers.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        loggers.getLogger("io.netty").setLevel(Level.WARN);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /**
     * Logback runs configurators found through {@code META-INF/services} before its own file lookup, whatever
     * their rank, so this one steps aside itself when a configuration file is named or on the class path.
     */
    private static boolean applicationConfiguresLogback() {
        ClassLoader loader = DefaultLogging.class.getClassLoader();
        return System.getProperty(CONFIG_FILE_PROPERTY) != null
                || loader.getResource("logback-test.xml") != null
                || loader.getResource("logback.xml") != null;
    }
}
