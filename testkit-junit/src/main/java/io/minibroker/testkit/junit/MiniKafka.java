package io.minibroker.testkit.junit;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs the annotated test class against an in-process minibroker:
 * <pre>
 *   &#64;MiniKafka(config = "num.partitions=3")
 *   class OrdersTest {
 *       &#64;Test
 *       void roundTrip(&#64;BootstrapServers String bootstrap, TopicNamespace topics) {
 *           String orders = topics.topic("orders");  // "roundTrip-1-orders": no other test uses it
 *           ...
 *       }
 *   }
 * </pre>
 * The broker starts before the class's first test (on a free port, in a temporary directory) and stops after
 * its last; with {@link Lifecycle#PER_RUN} one broker per distinct configuration serves every class of the run.
 *
 * <p>As Spring Kafka's {@code @EmbeddedKafka}: {@link #nodes} &gt; 1 starts a cluster in the test's JVM
 * ({@code MiniCluster}), {@link #topics} are created before the first test, and {@link #bootstrapServersProperty}
 * names a system property set to the bootstrap address for the class's tests:
 * <pre>
 *   &#64;MiniKafka(nodes = 3, topics = &#64;MiniKafka.Topic(name = "orders", partitions = 6, replicationFactor = 3),
 *              bootstrapServersProperty = "spring.kafka.bootstrap-servers")
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(MiniKafkaExtension.class)
public @interface MiniKafka {

    /** Broker configuration overrides as {@code key=value}, Kafka's key names; in a cluster, every node's. */
    String[] config() default {};

    /** How many nodes: 1 is a single broker ({@code EmbeddedBroker}), more a cluster whose node 0 is the controller. */
    int nodes() default 1;

    /** Topics that exist, every partition with a leader on every node, before the class's first test. */
    Topic[] topics() default {};

    /**
     * A system property set to the bootstrap address while the class's tests run, and restored after them;
     * empty (the default): none. For frameworks that read their configuration from system properties, such as
     * Spring's {@code spring.kafka.bootstrap-servers}.
     */
    String bootstrapServersProperty() default "";

    /** How long one broker lives. */
    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    enum Lifecycle {
        /** Started before the class's first test, stopped after its last. */
        PER_CLASS,
        /** Started when first needed, shared by every class with the same configuration, stopped at the end. */
        PER_RUN
    }

    /** A topic to create before the tests, as a CreateTopics request would: -1 is the broker's default. */
    @Target({})
    @Retention(RetentionPolicy.RUNTIME)
    @Documented
    @interface Topic {

        String name();

        /** -1: the broker's {@code num.partitions}. */
        int partitions() default -1;

        /** -1: the broker's {@code default.replication.factor}. */
        short replicationFactor() default -1;
    }
}
