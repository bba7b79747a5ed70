package io.minibroker.broker.server;

import io.minibroker.broker.controller.BrokerMembership;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.purgatory.time.ManualClock;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static io.minibroker.broker.server.Eventually.await;

/**
 * Broker sessions on a cluster's manual clock. The nodes heartbeat in real time, but the controller stamps each
 * heartbeat with the manual clock and judges sessions by it: a session runs out only when the test advances the
 * clock past it, never because a loaded machine delayed a heartbeat. One jump past the session would expire every
 * node's session at once, so the clock moves in steps of a quarter session (the controller's round for fencing and
 * elections, see LeaderElections), and after each step the test waits until every running node has heartbeat at
 * the new time: only a killed node, silent meanwhile, is fenced.
 */
public final class SessionClock {

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
     * for what comes of periodic work on the clock, such as a checkpoint.
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

    private void awaitRunningNodesHeartbeat() {
        long now = clock.nowMs();
        for (int id = 0; id < cluster.size(); id++) {
            if (cluster.isRunning(id)) {
                int node = id;
                await(() -> heartbeatAt(node, now), "node " + node + " to heartbeat at " + now + " ms");
            }
        }
    }

    private boolean heartbeatAt(int node, long now) {
        List<BrokerMembership.RegisteredBroker> live = cluster.controller().membership().liveBrokers();
        return live.stream().anyMatch(broker -> broker.id() == node && broker.lastHeartbeatMs() >= now);
    }
}
