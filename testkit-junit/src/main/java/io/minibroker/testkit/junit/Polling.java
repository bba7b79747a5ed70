package io.minibroker.testkit.junit;

import org.junit.jupiter.api.extension.ExtensionConfigurationException;

import java.io.IOException;
import java.time.Duration;

/** Waits on a broker's observable state, asked over the wire, until it holds or a deadline passes. */
final class Polling {

    private static final long PAUSE_MS = 10;

    /** A question to a broker; an IOException counts as "not yet" (a node still binding, say). */
    interface Condition {
        boolean holds() throws IOException;
    }

    private Polling() {
    }

    static void until(Condition condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!holds(condition)) {
            if (System.nanoTime() - deadline > 0) {
                throw new ExtensionConfigurationException("@MiniKafka: " + what + " did not happen within " + timeout);
            }
            Thread.sleep(PAUSE_MS); // polling another component's state, not synchronising a test
        }
    }

    private static boolean holds(Condition condition) {
        try {
            return condition.holds();
        } catch (IOException notYet) {
            return false;
        }
    }
}
