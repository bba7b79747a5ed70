package io.minibroker.purgatory.time;

/** The JVM's monotonic clock ({@link System#nanoTime()}), in milliseconds. */
public final class SystemClock implements Clock {

    public static final SystemClock INSTANCE = new SystemClock();

    private SystemClock() {
    }

    @Override
    public long nowMs() {
        return Math.floorDiv(System.nanoTime(), 1_000_000L);
    }
}
