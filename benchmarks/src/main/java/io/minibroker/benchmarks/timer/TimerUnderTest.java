package io.minibroker.benchmarks.timer;

/**
 * One timer implementation as the microbenchmarks see it: schedule a task, cancel what was scheduled, and count
 * what ran. Each implementation allocates whatever its own API requires per schedule (a task object for the
 * wheel timers, an internal timeout or future for Netty and the JDK), since that is part of its cost.
 */
interface TimerUnderTest {

    /** Schedules a task that counts itself when it runs; returns the handle {@link #cancel} takes. */
    Object schedule(long delayMs);

    void cancel(Object handle);

    /** Tasks that have run so far. */
    long expired();

    /** Stops the timer's threads. */
    void shutdown() throws Exception;

    static TimerUnderTest create(String name) {
        return switch (name) {
            case "minibroker" -> new MinibrokerTimer(false);
            case MinibrokerTimer.CALLER_TIME -> new MinibrokerTimer(true);
            case "kafka" -> new KafkaTimer();
            case "netty" -> new NettyTimer();
            case "stpe" -> new StpeTimer();
            default -> throw new IllegalArgumentException("unknown timer: " + name);
        };
    }
}
