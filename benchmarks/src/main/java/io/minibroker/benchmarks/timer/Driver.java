package io.minibroker.benchmarks.timer;

/**
 * The thread that moves a wheel timer's clock, as a purgatory's expiration reaper does: our timer and Kafka's
 * only expire tasks when someone calls advanceClock.
 */
final class Driver extends Thread {

    interface Step {
        void advance() throws InterruptedException;
    }

    private final Step step;
    private volatile boolean stopped;

    Driver(String name, Step step) {
        super(name);
        setDaemon(true);
        this.step = step;
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                step.advance();
            } catch (InterruptedException e) {
                // shutdown() interrupts to end a wait; the loop condition decides
            }
        }
    }

    /** Stops the thread; {@code wakeUp} ends a wait inside the timer that an interrupt would not. */
    void shutdown(Runnable wakeUp) throws InterruptedException {
        stopped = true;
        wakeUp.run();
        interrupt();
        join(5_000);
    }
}
