package io.minibroker.testkit.junit;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder.request;

/**
 * What the extension does before and after a whole class, seen from outside it: each scenario is a class of its
 * own, run here through JUnit's launcher. The scenarios are disabled elsewhere (a {@code -Dtest} pattern may name
 * them to Surefire), as some of them fail on purpose.
 */
class MiniKafkaAroundTheClassTest {

    private static final String PROPERTY = "minibroker.test.bootstrap";
    private static final String SCENARIOS = "minibroker.test.scenarios";
    /** What the scenario's test saw in the property while it ran. */
    private static volatile String seenDuringTheClass;

    @AfterEach
    void clearProperty() {
        System.clearProperty(PROPERTY);
        seenDuringTheClass = null;
    }

    @Test
    void theBootstrapPropertyIsSetForTheClassAndRestoredAfterIt() {
        System.setProperty(PROPERTY, "what the build set");

        TestExecutionSummary summary = run(SetsTheProperty.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(seenDuringTheClass).startsWith("localhost:");
        assertThat(System.getProperty(PROPERTY)).isEqualTo("what the build set");
    }

    @Test
    void aBootstrapPropertyThatWasNotSetIsClearedAfterTheClass() {
        TestExecutionSummary summary = run(SetsTheProperty.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(seenDuringTheClass).startsWith("localhost:");
        assertThat(System.getProperty(PROPERTY)).isNull();
    }

    @Test
    void aClusterIsNotHandedOutAsASingleBroker() {
        TestExecutionSummary summary = run(AsksAClusterForAnEmbeddedBroker.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getFailures().get(0).getException())
                .isInstanceOf(ParameterResolutionException.class)
                .hasMessageContaining("MiniCluster");
    }

    @Test
    void aTopicTheBrokerRefusesFailsTheClassWithKafkasError() {
        TestExecutionSummary summary = run(AsksForMoreReplicasThanNodes.class);

        assertThat(summary.getTestsSucceededCount()).isZero();
        assertThat(summary.getFailures()).singleElement().satisfies(failure ->
                assertThat(failure.getException())
                        .isInstanceOf(ExtensionConfigurationException.class)
                        .hasMessageContaining("'three-replicas'")
                        .hasMessageContaining("INVALID_REPLICATION_FACTOR"));
    }

    @Test
    void nestedClassesShareTheirEnclosingClasssBroker() {
        TestExecutionSummary summary = run(HasNestedTests.class);

        assertThat(summary.getFailures()).isEmpty();
        assertThat(summary.getTestsSucceededCount()).isEqualTo(3);
        assertThat(HasNestedTests.SEEN).hasSize(3).allSatisfy(seen -> assertThat(seen).startsWith("localhost:"));
        assertThat(HasNestedTests.SEEN).as("one broker for the class and its nested classes").containsOnly(
                HasNestedTests.SEEN.get(0));
    }

    private static TestExecutionSummary run(Class<?> scenario) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        System.setProperty(SCENARIOS, "run");
        try {
            LauncherFactory.create().execute(request().selectors(selectClass(scenario)).build(), listener);
        } finally {
            System.clearProperty(SCENARIOS);
        }
        assertThat(listener.getSummary().getContainersSkippedCount()).as("scenario disabled").isZero();
        return listener.getSummary();
    }

    @MiniKafka(bootstrapServersProperty = PROPERTY)
    @EnabledIfSystemProperty(named = SCENARIOS, matches = "run")
    static class SetsTheProperty {
        @Test
        void readsIt() {
            seenDuringTheClass = System.getProperty(PROPERTY);
        }
    }

    @MiniKafka
    @EnabledIfSystemProperty(named = SCENARIOS, matches = "run")
    static class HasNestedTests {
        /** The bootstrap address each test was given, outer and nested. */
        static final List<String> SEEN = new CopyOnWriteArrayList<>();

        @Test
        void outer(@BootstrapServers String bootstrap) {
            SEEN.add(bootstrap);
        }

        @Nested
        class Inner {
            @Test
            void inner(@BootstrapServers String bootstrap) {
                SEEN.add(bootstrap);
            }

            @Nested
            class Deeper {
                @Test
                void deeper(EmbeddedBroker broker) {
                    SEEN.add(broker.bootstrapServers());
                }
            }
        }
    }

    @MiniKafka(nodes = 2)
    @EnabledIfSystemProperty(named = SCENARIOS, matches = "run")
    static class AsksAClusterForAnEmbeddedBroker {
        @Test
        void wantsOne(EmbeddedBroker broker) {
        }
    }

    @MiniKafka(topics = @MiniKafka.Topic(name = "three-replicas", partitions = 1, replicationFactor = 3))
    @EnabledIfSystemProperty(named = SCENARIOS, matches = "run")
    static class AsksForMoreReplicasThanNodes {
        @Test
        void neverRuns() {
        }
    }
}
