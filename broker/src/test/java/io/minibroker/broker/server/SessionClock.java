package io.minibroker.broker.server;

import io.minibroker.broker.controller.BrokerMembership;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.purgatory.time.ManualClock;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

import static io.minibroker.broker.server.Eventually.await;

/**
 * Broker sessions on a cluster's manual clock. The nodes heartbeat in real time, but the controller stamps each
 * heartbeat with the manual clock and judges sessions by it: a session runs out only when the test advances the
 * clock past it, never because a loaded machine delayed a heartbeat. One jump past the session would expire every
 * node's session at once, so the clock moves in steps of a quarter session (the controller's round for fencing and
 * elections, see LeaderElections), and after each step the test waits until every running node has heartbeat at
 * the new time: only a killed node, silent meanwhile, is fenced.
 *
 * <p>A test whose cluster waits on timers as it would on the real clock (a follower's fetch parked at its leader, a
 * retry's backoff, the controller's next round after a stop) lets the clock run instead ({@link #startRunning}):
 * the steps go on by themselves on a thread of their own, each once every running node has heartbeat at the last,
 * so that a killed node's session runs out in due course but a live node's never does, however loaded the machine.
 */
public final class SessionClock {

    /**
     * A running clock's step: short against the sessions, and as long as the replica.fetch.wait.max.ms the cluster
     * tests set, so that a follower's parked fetch returns about as soon as on the real clock.
     */
    private static final long RUNNING_STEP_MS = 100;
    /**
     * A running clock's nodes' broker.heartbeat.interval.ms: each step waits for every running node's next
     * heartbeat, so this is about how long a step takes in real time.
     */
    private static final long HEARTBEAT_INTERVAL_MS = 100;

    private final MiniCluster cluster;
    private final ManualClock clock;
    private final long sessionMs;

    public SessionClock(MiniCluster cluster, ManualClock clock, long sessionMs) {
        this.cluster = cluster;
        this.clock = clock;
        this.sessionMs = sessionMs;
    }

    /**
     * Advances past the session of every node that stopped heartbeating, and one more controller round, which fences
     * them and elects new leaders for their partitions.
     */
    public void expireSilentSessions() {
        long step = Math.max(1, sessionMs / 4);
        for (long moved = 0; moved <= sessionMs + step; moved += step) {
            clock.advance(step);
            awaitRunningNodesHeartbeat();
        }
    }

    /**
     * Advances to the controller's next round, which acts on what changed since the last (a node stopped cleanly,
     * or back and able to lead).
     */
    public void nextControllerRound() {
        advanceKeepingSessions(Math.max(1, sessionMs / 4));
    }

    /** Advances by {@code ms} in steps shorter than the session, the running nodes heartbeating after each one. */
    public void advanceKeepingSessions(long ms) {
        long step = Math.max(1, sessionMs / 4);
        for (long left = ms; left > 0; left -= step) {
            clock.advance(Math.min(step, left));
            awaitRunningNodesHeartbeat();
        }
    }

    /**
     * Waits for {@code condition}, advancing the clock by {@code stepMs} (shorter than the session) between looks:
     * for what comes of periodic work on the clock, such as a checkpoint, or of a follower's fetches, such as a
     * restarted follower's return to the ISR. The leader takes it back only at a fetch of its own once the leader's
     * image has it live (KIP-841); its first caught-up fetch may come before that image, and on a still clock its
     * next one stays parked at the leader (as does the leader's periodic ISR check), so a step of
     * replica.fetch.wait.max.ms answers it.
     */
    public void awaitAdvancing(long stepMs, BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what + " at " + clock.nowMs() + " ms");
            }
            advanceKeepingSessions(stepMs);
        }
    }

    /**
     * Starts a cluster of {@code nodes} on a manual clock that moves on by itself, with sessions of
     * {@code sessionMs} of that clock, and returns once every node is live; closing the answer stops the clock, then
     * the cluster. The settings the running clock needs are made here ({@code overrides} add the test's own): a
     * heartbeat every {@link #HEARTBEAT_INTERVAL_MS} (real time), which each step waits for, and followers' fetches
     * parked at their leader for one step at most.
     */
    public static Running startRunning(int nodes, long sessionMs, Map<String, String> overrides)
            throws IOException, InterruptedException {
        Map<String, String> settings = new HashMap<>(overrides);
        for (Map.Entry<String, String> setting : Map.of("broker.heartbeat.interval.ms",
                String.valueOf(HEARTBEAT_INTERVAL_MS), "broker.session.timeout.ms", String.valueOf(sessionMs),
                "replica.fetch.wait.max.ms", String.valueOf(RUNNING_STEP_MS)).entrySet()) {
            if (settings.put(setting.getKey(), setting.getValue()) != null) {
                throw new IllegalArgumentException(setting.getKey() + " is startRunning's to set");
            }
        }
        ManualClock clock = new ManualClock();
        MiniCluster cluster = MiniCluster.start(nodes, settings, clock);
        Running running = new SessionClock(cluster, clock, sessionMs).new Running();
        try {
            await(() -> cluster.controller().membership().liveBrokers().size() == nodes, nodes + " live brokers");
        } catch (AssertionError e) {
            running.close();
            throw e;
        }
        return running;
    }

    /**
     * A cluster whose clock moves on by {@link #RUNNING_STEP_MS} at a time on a thread of its own, each step once
     * every running node has heartbeat at the last.
     */
    public final class Running implements AutoCloseable {
        /** Held by each step, and by a test that holds the clock still; fair, so that a test gets it between steps. */
        private final ReentrantLock steps = new ReentrantLock(true);
        private final Thread thread;
        private volatile boolean stopped;
        private volatile Throwable failure;

        private Running() {
            thread = new Thread(() -> {
                try {
                    while (!stopped) {
                        steps.lock();
                        try {
                            advanceKeepingSessions(RUNNING_STEP_MS);
                        } finally {
                            steps.unlock();
                        }
                    }
                } catch (Throwable e) {
                    failure = e;
                }
            }, "session-clock");
            thread.setDaemon(true);
            thread.start();
        }

        public MiniCluster cluster() {
            return cluster;
        }

        /**
         * Holds the clock still, once its step under way has ended, until the answer is closed (on this thread):
         * for a state the test must look at before a timer ends it, such as killed nodes still in an ISR.
         */
        public Held hold() {
            steps.lock();
            return steps::unlock;
        }

        /** Stops the clock, then the cluster; fails if a step did (a running node never heartbeat). */
        @Override
        public void close() {
            stopped = true;
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                cluster.close();
            }
            if (failure != null) {
                throw new AssertionError("the clock stopped moving at " + clock.nowMs() + " ms", failure);
            }
        }
    }

    /** The clock held still by a test, until it lets go (on the thread that held it). */
    public interface Held extends AutoCloseable {
        @Override
        void close();
    }

    private void awaitRunningNodesHeartbeat() {
        long now = clock.nowMs();
        for (int id = 0; id < cluster.size(); id++) {
            int node = id;
            // A node killed or stopped meanwhile has no heartbeat to wait for, nor any node while no controller
            // judges the sessions.
            await(() -> !cluster.isRunning(node) || !cluster.isRunning(MiniCluster.CONTROLLER_ID)
                    || heartbeatAt(node, now),
                    "node " + node + " to heartbeat at " + now + " ms");
        }
    }

    private boolean heartbeatAt(int node, long now) {
        List<BrokerMembership.RegisteredBroker> live;
        try {
            live = cluster.controller().membership().liveBrokers();
        } catch (IllegalStateException stoppedJustNow) {
            return false; // looked at again: then no controller judges the sessions
        }
        return live.stream().anyMatch(broker -> broker.id() == node && broker.lastHeartbeatMs() >= now);
    }
}
