package io.minibroker.it;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits for what a broker or a client does in the background to come true, polling an observable condition. */
final class Eventually {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long POLL_MS = 20;

    private Eventually() {
    }

    static void await(BooleanSupplier condition, String what) {
        await(condition, () -> what);
    }

    /** Polls {@code condition} until it holds; fails naming {@code what} if it does not within 30 s. */
    static void await(BooleanSupplier condition, Supplier<String> what) {
        await(WAIT, condition, what);
    }

    /** The same with a wait of its own, for what takes longer (a group's rebalances, heartbeat by heartbeat). */
    static void await(Duration wait, BooleanSupplier condition, Supplier<String> what) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what.get());
            }
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
    }
}
