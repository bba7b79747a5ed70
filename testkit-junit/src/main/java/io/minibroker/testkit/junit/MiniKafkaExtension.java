package io.minibroker.testkit.junit;

import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.Controls;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestInstancePostProcessor;
import org.junit.platform.commons.support.AnnotationSupport;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JUnit 5 extension behind {@link MiniKafka}. It can also be registered as a static field, where the test
 * reads the address from the field instead of a parameter:
 * <pre>
 *   &#64;RegisterExtension
 *   static final MiniKafkaExtension KAFKA = MiniKafkaExtension.withConfig(Map.of("num.partitions", "3"));
 *   ...  KAFKA.bootstrapServers() ...
 * </pre>
 * Parameters it fills: {@code @BootstrapServers String}, {@link TopicNamespace}, {@link EmbeddedBroker} for a
 * single broker or {@link MiniCluster} for {@link MiniKafka#nodes} &gt; 1, and {@link Controls} or
 * {@link BrokerControls} (a node's test controls, see {@link ControlsOf}, which also marks fields to fill). The broker lives in JUnit's extension
 * store, so JUnit closes it when the class (or, per run, the whole run) is done, even when a test fails.
 */
public final class MiniKafkaExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver,
        TestInstancePostProcessor, AfterEachCallback {

    private static final ExtensionContext.Namespace STORE = ExtensionContext.Namespace.create(MiniKafkaExtension.class);
    /** A test's store key: it was handed controls, which are reset after it. */
    private static final String HANDED_CONTROLS = "handed controls";
    /** The class store's key for the value the bootstrap property had before the class's tests. */
    private static final String PREVIOUS_PROPERTY = "previous bootstrap servers property";

    /** Set when registered programmatically; otherwise the {@link MiniKafka} annotation says. */
    private final Map<String, String> programmaticConfig;
    private volatile RunningBroker broker;

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
        String property = programmaticConfig == null ? annotation(context).bootstrapServersProperty() : "";
        if (!property.isEmpty()) {
            // Kept in the class's store, a holder so that "was not set" (null) is remembered too.
            context.getStore(STORE).put(PREVIOUS_PROPERTY, new String[] {System.getProperty(property)});
            System.setProperty(property, broker.bootstrapServers());
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        String[] previous = context.getStore(STORE).remove(PREVIOUS_PROPERTY, String[].class);
        if (previous != null) {
            String property = annotation(context).bootstrapServersProperty();
            if (previous[0] == null) {
                System.clearProperty(property);
            } else {
                System.setProperty(property, previous[0]);
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == EmbeddedBroker.class || type == MiniCluster.class || type == TopicNamespace.class
                || type == Controls.class || type == BrokerControls.class
                || (type == String.class && parameter.isAnnotated(BootstrapServers.class));
    }

    /** Fills the test instance's {@link ControlsOf} fields. */
    @Override
    public void postProcessTestInstance(Object testInstance, ExtensionContext context) throws IllegalAccessException {
        for (Field field : AnnotationSupport.findAnnotatedFields(testInstance.getClass(), ControlsOf.class)) {
            if (Modifier.isStatic(field.getModifiers())
                    || (field.getType() != Controls.class && field.getType() != BrokerControls.class)) {
                throw new ExtensionConfigurationException("@ControlsOf marks an instance field of type Controls or "
                        + "BrokerControls, not " + field);
            }
            field.setAccessible(true);
            // The instance may serve several tests (PER_CLASS lifecycle): the controls are reset after each one.
            field.set(testInstance, controls(context, field.getAnnotation(ControlsOf.class).node()));
            context.getStore(STORE).put(HANDED_CONTROLS, Boolean.TRUE);
        }
    }

    /** Resets every running node's controls after a test that was handed some. */
    @Override
    public void afterEach(ExtensionContext context) {
        boolean handed = context.getStore(STORE).remove(HANDED_CONTROLS) != null
                || classContext(context).getStore(STORE).get(HANDED_CONTROLS) != null;
        if (handed) {
            broker(context).resetControls();
        }
    }

    private BrokerControls controls(ExtensionContext context, int node) {
        return broker(context).controls(node);
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        if (type == Controls.class || type == BrokerControls.class) {
            int node = parameter.findAnnotation(ControlsOf.class).map(ControlsOf::node).orElse(0);
            context.getStore(STORE).put(HANDED_CONTROLS, Boolean.TRUE);
            return controls(context, node);
        }
        if (type == TopicNamespace.class) {
            String owner = context.getTestMethod().map(method -> method.getName())
                    .orElseGet(() -> context.getRequiredTestClass().getSimpleName());
            return context.getStore(STORE).getOrComputeIfAbsent(TopicNamespace.class,
                    key -> new TopicNamespace(owner), TopicNamespace.class);
        }
        RunningBroker resolved = broker(context);
        if (type == String.class) {
            return resolved.bootstrapServers();
        }
        Object wanted = type == EmbeddedBroker.class ? resolved.single : resolved.cluster;
        if (wanted == null) {
            throw new ParameterResolutionException(type == EmbeddedBroker.class
                    ? "@MiniKafka(nodes > 1) runs a MiniCluster: take a MiniCluster parameter, not an EmbeddedBroker"
                    : "@MiniKafka with one node runs an EmbeddedBroker: take that, or ask for nodes > 1");
        }
        return wanted;
    }

    private RunningBroker broker(ExtensionContext context) {
        BrokerSpec spec;
        boolean perRun;
        if (programmaticConfig != null) {
            spec = new BrokerSpec(programmaticConfig, 1, List.of());
            perRun = false;
        } else {
            MiniKafka annotation = annotation(context);
            if (annotation.nodes() < 1) {
                throw new ExtensionConfigurationException("@MiniKafka(nodes) needs at least 1, got "
                        + annotation.nodes());
            }
            spec = new BrokerSpec(parse(annotation.config()), annotation.nodes(), List.of(annotation.topics()));
            perRun = annotation.lifecycle() == MiniKafka.Lifecycle.PER_RUN;
        }
        ExtensionContext owner = perRun ? context.getRoot() : ownerContext(context);
        // Keyed by what was asked for: per run, classes that ask for different brokers get different ones.
        return owner.getStore(STORE).getOrComputeIfAbsent(spec, key -> RunningBroker.start(spec), RunningBroker.class);
    }

    private static MiniKafka annotation(ExtensionContext context) {
        return AnnotationSupport.findAnnotation(annotatedClass(context), MiniKafka.class).orElseThrow();
    }

    /** The test class carrying {@code @MiniKafka}: the test's own, else that of a class it is {@code @Nested} in. */
    private static Class<?> annotatedClass(ExtensionContext context) {
        for (Class<?> type = context.getRequiredTestClass(); type != null;
                type = isNested(type) ? type.getEnclosingClass() : null) {
            if (AnnotationSupport.isAnnotated(type, MiniKafka.class)) {
                return type;
            }
        }
        throw new ExtensionConfigurationException(
                "MiniKafkaExtension needs @MiniKafka on the class or registration with withConfig(...)");
    }

    private static boolean isNested(Class<?> type) {
        return type.isMemberClass() && !Modifier.isStatic(type.getModifiers());
    }

    /**
     * The class context whose store holds the broker: that of the class carrying {@code @MiniKafka}, or for
     * {@link #withConfig} the outermost class of a {@code @Nested} chain, so that nested tests share their
     * enclosing class's broker as Spring's {@code @EmbeddedKafka} users expect.
     */
    private ExtensionContext ownerContext(ExtensionContext context) {
        Class<?> declaring = programmaticConfig == null ? annotatedClass(context) : null;
        ExtensionContext current = classContext(context);
        while (current.getRequiredTestClass() != declaring && isNested(current.getRequiredTestClass())
                && current.getParent().flatMap(ExtensionContext::getTestClass).isPresent()) {
            current = current.getParent().get();
        }
        return current;
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

    /** What a broker is started for; equal specs share a broker per run. Annotations compare by their values. */
    private record BrokerSpec(Map<String, String> config, int nodes, List<MiniKafka.Topic> topics) {
    }

    /** A broker or cluster in JUnit's store: JUnit closes it when the store's owner is done. */
    private static final class RunningBroker implements ExtensionContext.Store.CloseableResource, AutoCloseable {

        private final EmbeddedBroker single;
        private final MiniCluster cluster;

        private RunningBroker(EmbeddedBroker single, MiniCluster cluster) {
            this.single = single;
            this.cluster = cluster;
        }

        static RunningBroker start(BrokerSpec spec) {
            RunningBroker running = null;
            try {
                if (spec.nodes() == 1) {
                    running = new RunningBroker(EmbeddedBroker.start(spec.config()), null);
                } else {
                    running = new RunningBroker(null, MiniCluster.start(spec.nodes(), spec.config()));
                    TopicCreation.awaitEveryNodeListed(running.bootstrapServers());
                }
                TopicCreation.create(running.bootstrapServers(), spec.topics());
                return running;
            } catch (IOException e) {
                closeStarted(running);
                throw new ParameterResolutionException("minibroker did not start", e);
            } catch (InterruptedException e) {
                closeStarted(running);
                Thread.currentThread().interrupt();
                throw new ParameterResolutionException("interrupted while starting minibroker", e);
            } catch (RuntimeException e) {
                closeStarted(running);
                throw e;
            }
        }

        /** A broker whose topics could not be created is not handed to JUnit's store, so nothing else closes it. */
        private static void closeStarted(RunningBroker running) {
            if (running != null) {
                running.close();
            }
        }

        String bootstrapServers() {
            return single != null ? single.bootstrapServers() : cluster.bootstrapServers();
        }

        BrokerControls controls(int node) {
            if (single != null) {
                if (node != 0) {
                    throw new ParameterResolutionException("a single broker is node 0, there is no node " + node);
                }
                return single.controls();
            }
            if (node < 0 || node >= cluster.size()) {
                throw new ParameterResolutionException("the cluster has nodes 0 to " + (cluster.size() - 1)
                        + ", not " + node);
            }
            return cluster.controls(node);
        }

        void resetControls() {
            if (single != null) {
                single.controls().reset();
                return;
            }
            for (int node = 0; node < cluster.size(); node++) {
                if (cluster.isRunning(node)) {
                    cluster.controls(node).reset();
                }
            }
        }

        @Override
        public void close() {
            if (single != null) {
                single.close();
            } else {
                cluster.close();
            }
        }
    }
}
