package io.minibroker.broker.controller;

import io.minibroker.broker.time.BrokerClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs the controller's periodic leader elections on a thread of its own ({@code controller-elections}); brokers
 * learn the outcome from their next image:
 * <ul>
 *   <li>every quarter of {@code broker.session.timeout.ms}, brokers whose session expired are marked fenced
 *       ({@link BrokerMembership#fenceExpiredSessions}), then leave the ISRs, and partitions whose leader is gone
 *       get new ones ({@link TopicAssignments#electLeaders}), so that a broker's death is acted on soon after its
 *       session expires;</li>
 *   <li>with {@code auto.leader.rebalance.enable}, the automatic leader rebalance
 *       ({@link TopicAssignments#balanceLeaders}) every {@code leader.imbalance.check.interval.seconds}: after a
 *       broker comes back and rejoins the ISRs, it leads again the partitions whose first replica it is. A run
 *       that moved as many leaders as one run may is followed by another at once, as in Kafka.</li>
 * </ul>
 */
public final class LeaderElections implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElections.class);

    /**
     * Both jobs are periodic tasks, which shutdown() cancels; a one-shot delayed task would by default still be run
     * after it, holding close() and the thread until it came due.
     */
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "controller-elections"));
    private final BrokerMembership membership;
    private final TopicAssignments assignments;

    /** @param balanceIntervalMs how often the leaders are rebalanced; 0 for never */
    public LeaderElections(BrokerMembership membership, TopicAssignments assignments, long sessionTimeoutMs,
                           long balanceIntervalMs, BrokerClock clock) {
        this.membership = membership;
        this.assignments = assignments;
        // A round that throws is logged by the clock's schedule and tried again at the next check.
        clock.scheduleWithFixedDelay(thread, "Leader election after fencing", Math.max(1, sessionTimeoutMs / 4),
                this::actOnFencedBrokers);
        if (balanceIntervalMs > 0) {
            clock.scheduleWithFixedDelay(thread, "Leader rebalance", balanceIntervalMs, this::balance);
        }
    }

    private void actOnFencedBrokers() {
        membership.fenceExpiredSessions(); // brokers learn of an expired session now, not at some later change
        assignments.electLeaders();
    }

    private void balance() {
        // A run that moved as many as a run may leaves more to move: go on at once, not an interval later.
        while (assignments.balanceLeaders() >= TopicAssignments.MAX_ELECTIONS_PER_BALANCE && !thread.isShutdown()) {
            LOG.info("Leader rebalance moved {} leaders; going on", TopicAssignments.MAX_ELECTIONS_PER_BALANCE);
        }
    }

    /**
     * Stops the thread, waiting up to 5 s for a run under way (an election fsyncs the assignments, so the thread is
     * not interrupted: that would close the file); answers whether it has ended.
     */
    @Override
    public void close() throws InterruptedException {
        awaitClosed();
    }

    boolean awaitClosed() throws InterruptedException {
        thread.shutdown();
        boolean ended = thread.awaitTermination(5, TimeUnit.SECONDS);
        if (!ended) {
            LOG.warn("The controller-elections thread is still busy 5 s after close; leaving it to finish");
        }
        return ended;
    }
}
