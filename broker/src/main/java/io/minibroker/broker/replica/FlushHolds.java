package io.minibroker.broker.replica;

/**
 * A test's slow disk under the followers: while held, a fetcher about to fsync what it appended
 * ({@code flush.messages}) waits until released, as it would for an fsync that takes that long. Released for good
 * when the fetchers close, so that a broker stops whatever a test left held.
 */
final class FlushHolds {

    /** Volatile: a fetcher reads it without the lock, so that unheld (always, outside tests) costs no lock. */
    private volatile boolean held;
    private boolean closed;
    private int waiting;

    synchronized void hold() {
        held = !closed;
    }

    synchronized void release() {
        held = false;
        notifyAll();
    }

    synchronized void close() {
        closed = true;
        release();
    }

    /** The fetchers waiting in {@link #awaitRelease} now. */
    synchronized int waiting() {
        return waiting;
    }

    /** Returns once not held (at once, the usual case). */
    void awaitRelease() {
        if (held) {
            awaitReleaseHeld();
        }
    }

    private synchronized void awaitReleaseHeld() {
        waiting++;
        try {
            while (held) {
                wait();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // only the JVM's shutdown interrupts a fetcher: it stops
        } finally {
            waiting--;
        }
    }
}
