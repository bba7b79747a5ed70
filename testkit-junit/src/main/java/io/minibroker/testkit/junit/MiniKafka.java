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
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(MiniKafkaExtension.class)
public @interface MiniKafka {

    /** Broker configuration overrides as {@code key=value}, Kafka's key names. */
    String[] config() default {};

    /** How long one broker lives. */
    Lifecycle lifecycle() default Lifecycle.PER_CLASS;

    enum Lifecycle {
        /** Started before the class's first test, stopped after its last. */
        PER_CLASS,
        /** Started when first needed, shared by every class with the same configuration, stopped at the end. */
        PER_RUN
    }
}
