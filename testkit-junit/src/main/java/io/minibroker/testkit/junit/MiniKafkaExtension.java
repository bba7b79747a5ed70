package io.minibroker.testkit.junit;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The JUnit 5 extension behind {@link MiniKafka}. It can also be registered as a static field, where the test
 * reads the address from the field instead of a parameter:
 * <pre>
 *   &#64;RegisterExtension
 *   static final MiniKafkaExtension KAFKA = MiniKafkaExtension.withConfig(Map.of("num.partitions", "3"));
 *   ...  KAFKA.bootstrapServers() ...
 * </pre>
 * Parameters it fills: {@code @BootstrapServers String}, {@link EmbeddedBroker} and {@link TopicNamespace}.
 * The broker lives in JUnit's extension store, so JUnit closes it when the class (or, per run, the whole run)
 * is done, even when a test fails.
 */
public final class MiniKafkaExtension implements BeforeAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(MiniKafkaExtension.class);

    /** Set when registered programmatically; otherwise the {@link MiniKafka} annotation says. */
    private final Map<String, String> programmaticConfig;
    private volatile EmbeddedBroker broker;

    /** Used by {@link MiniKafka}: reads the configuration from the annotation. */
    public MiniKafkaExtension() {
        this.programmaticConfig = null;
    }

    private MiniKafkaExtension(Map<String, String> config) {
        this.programmaticConfig = Map.copyOf(config);
    }

    /** For {@code @RegisterExtension}: a broker per test class, with these configuration overrides. */
    public static MiniKafkaExtension withConfig(Map<String, String> config) {
        return new MiniKafkaExtension(config);
    }

    /** The {@code bootstrap.servers} value, once the class's tests have started. */
    public String bootstrapServers() {
        if (broker == null) {
            throw new IllegalStateException("the broker starts before the test class's first test; "
                    + "register the extension on a static field");
        }
        return broker.bootstrapServers();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        broker = broker(context);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedBroker.class || type == TopicNamespace.class
                || (type == String.class && parameter.isAnnotated(BootstrapServers.class));
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == TopicNamespace.class) {
            String owner = context.getTestMethod().map(method -> method.getName())
                    .orElseGet(() -> context.getRequiredTestClass().getSimpleName());
            return context.getStore(STORE).getOrComputeIfAbsent(TopicNamespace.class,
                    key -> new TopicNamespace(owner), TopicNamespace.class);
        }
        EmbeddedBroker resolved = broker(context);
        return type == EmbeddedBroker.class ? resolved : resolved.bootstrapServers();
    }

    private EmbeddedBroker broker(ExtensionContext context) {
        MiniKafka annotation = annotation(context);
        Map<String, String> config = programmaticConfig != null ? programmaticConfig : parse(annotation.config());
        boolean perRun = programmaticConfig == null && annotation.lifecycle() == MiniKafka.Lifecycle.PER_RUN;
        ExtensionContext owner = perRun ? context.getRoot() : classContext(context);
        // Keyed by configuration: per run, classes that ask for different brokers get different ones.
        RunningBroker running = owner.getStore(STORE).getOrComputeIfAbsent(config,
                key -> RunningBroker.start(config), RunningBroker.class);
        return running.broker;
    }

    private MiniKafka annotation(ExtensionContext context) {
        if (programmaticConfig != null) {
            return null;
        }
        Optional<MiniKafka> found = AnnotationSupport.findAnnotation(context.getRequiredTestClass(), MiniKafka.class);
        return found.orElseThrow(() -> new ExtensionConfigurationException(
                "MiniKafkaExtension needs @MiniKafka on the class or registration with withConfig(...)"));
    }

    private static ExtensionContext classContext(ExtensionContext context) {
        ExtensionContext current = context;
        while (current.getTestMethod().isPresent() && current.getParent().isPresent()) {
            current = current.getParent().get();
        }
        return current;
    }

    private static Map<String, String> parse(String[] entries) {
        Map<String, String> config = new LinkedHashMap<>();
        for (String entry : entries) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new ExtensionConfigurationException("@MiniKafka config entries are key=value, got '"
                        + entry + "'");
            }
            config.put(entry.substring(0, eq).trim(), entry.substring(eq + 1).trim());
        }
        return config;
    }

    /** A broker in JUnit's store: JUnit closes it when the store's owner is done. */
    private static final class RunningBroker implements ExtensionContext.Store.CloseableResource {

        private final EmbeddedBroker broker;

        private RunningBroker(EmbeddedBroker broker) {
            this.broker = broker;
        }

        static RunningBroker start(Map<String, String> config) {
            try {
                return new RunningBroker(EmbeddedBroker.start(config));
            } catch (IOException e) {
                throw new ParameterResolutionException("minibroker did not start", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ParameterResolutionException("interrupted while starting minibroker", e);
            }
        }

        @Override
        public void close() {
            broker.close();
        }
    }
}
