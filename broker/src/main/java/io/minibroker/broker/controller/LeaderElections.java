package io.minibroker.broker.controller;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the controller's leader elections and removals of fenced brokers from ISRs
 * ({@link TopicAssignments#electLeaders}) on a thread of its own ({@code controller-elections}), often enough
 * that a broker's death is acted on soon after its session expires:
 * every quarter of {@code broker.session.timeout.ms}. Brokers learn the outcome from their next image.
 */
public final class LeaderElections implements AutoCloseable {

    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "controller-elections"));

    public LeaderElections(TopicAssignments assignments, long sessionTimeoutMs) {
        long period = Math.max(1, sessionTimeoutMs / 4);
        thread.scheduleWithFixedDelay(assignments::electLeaders, period, period, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        thread.shutdown(); // not shutdownNow: an election fsyncs the assignments, and an interrupt closes that file
        thread.awaitTermination(5, TimeUnit.SECONDS);
    }
}
