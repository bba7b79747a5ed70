package io.minibroker.broker.server;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Waits for what a cluster does in the background (heartbeats, metadata fetches) to come true. */
public final class Eventually {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private Eventually() {
    }

    /** Returns once {@code condition} holds; fails naming {@code what} if it does not within 20 s. */
    public static void await(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
