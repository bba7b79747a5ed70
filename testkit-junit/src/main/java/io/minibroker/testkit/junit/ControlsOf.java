package io.minibroker.testkit.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The test controls of one node (docs/test-controls.md), on a {@code Controls} or {@code BrokerControls} test
 * method parameter or instance field of a {@link MiniKafka} test:
 * <pre>
 *   &#64;ControlsOf BrokerControls controls;             // the broker's, or a cluster's node 0 (its controller)
 *   &#64;Test
 *   void retries(&#64;ControlsOf(node = 2) Controls follower) { follower.lagFollower("orders", 0); }
 * </pre>
 * A parameter of those types needs no annotation for node 0. Every node's controls are reset after each test that
 * was handed some, so that one test's rules do not fire in the next (nodes taken down stay down).
 */
@Target({ElementType.PARAMETER, ElementType.FIELD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ControlsOf {

    /** The node, 0 (a single broker's only one, a cluster's controller) by default. */
    int node() default 0;
}
