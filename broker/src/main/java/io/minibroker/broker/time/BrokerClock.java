package io.minibroker.broker.time;

import io.minibroker.purgatory.time.Clock;
import io.minibroker.purgatory.time.ManualClock;
import io.minibroker.purgatory.time.SystemClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The broker's one clock: every class of the broker that needs the time asks this, never the system, so that a
 * test can start a broker on a {@link ManualClock} and move time itself (Kafka's {@code Time} / {@code MockTime}).
 *
 * <p>It tells two kinds of time, as Kafka's {@code Time} does:
 * <ul>
 *   <li><b>monotonic</b> ({@link #monotonicMs}, {@link #monotonicNanos}): deadlines and durations, never stepped by
 *       NTP or a user changing the date: purgatory timeouts, sessions, replica lag, request times;</li>
 *   <li><b>wall-clock</b> ({@link #wallClockMs}): what is written down or compared with what was: commit and
 *       record timestamps, segment ages, offsets' expiry.</li>
 * </ul>
 * On a manual clock both move together: the wall clock starts at the real time when the broker's clock is made
 * and then moves only with {@link ManualClock#advance}, so a test that advances 7 days sees retention and
 * expiry act as if 7 days had passed.
 *
 * <p>Periodic work (retention rounds, offsets' expiry, checkpoints, ISR checks) is scheduled through
 * {@link #scheduleWithFixedDelay}: on the system clock by its executor's own timer; on a manual clock by
 * {@link ManualClock#advance}, which runs each round that became due on its executor and waits for it, so that
 * when {@code advance} returns, the rounds it made due have run; so is a task run once after a delay
 * ({@link #scheduleOnce}: a deleted segment's files, {@code file.delete.delay.ms} later). Network timeouts (a
 * client's socket, Netty's idle close, a blocking request to another node, a cluster's heartbeats) stay on real time:
 * they measure a peer, not the broker.
 *
 * <p>One {@code advance} is one jump: whatever fires during it sees the time after the jump, so work that a due
 * operation schedules (a group's initial delay extended by another delay, say) counts from there. A test that
 * follows such a chain advances in steps, one per link, as it would with Kafka's {@code MockTime}.
 */
public final class BrokerClock {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerClock.class);
    /** How long {@link ManualClock#advance} waits for one periodic round it made due. */
    private static final long ROUND_WAIT_S = 60;

    private final Clock monotonic;
    /** Whether {@link #monotonic} is a test's manual clock: decided once, read on every request's timing. */
    private final boolean manual;
    /** On a manual clock: wall-clock time minus monotonic time, fixed when this clock was made. */
    private final long wallOffsetMs;
    private final java.time.Clock wallClock = new WallClockView();

    private BrokerClock(Clock monotonic, long wallOffsetMs) {
        this.monotonic = monotonic;
        this.manual = monotonic instanceof ManualClock;
        this.wallOffsetMs = wallOffsetMs;
    }

    /** The real clock: the JVM's monotonic clock and the system's wall clock. */
    public static BrokerClock system() {
        return new BrokerClock(SystemClock.INSTANCE, 0);
    }

    /** A clock that moves only when the test advances {@code clock}; wall-clock time starts at the real time now. */
    public static BrokerClock manual(ManualClock clock) {
        return new BrokerClock(clock, System.currentTimeMillis() - clock.nowMs());
    }

    /**
     * Moves a manual clock {@code ms} forward (what is due fires before this returns; see {@link ManualClock#advance});
     * the system clock cannot be moved, and says so.
     */
    public void advance(long ms) {
        if (!(monotonic instanceof ManualClock manualClock)) {
            throw new IllegalStateException("the broker runs on the system clock; start it on a ManualClock to move time");
        }
        manualClock.advance(ms);
    }

    /** Whether this is a test's manual clock, which {@link #advance} moves. */
    public boolean isManual() {
        return manual;
    }

    /** Milliseconds of a clock that never jumps: for deadlines and durations only. */
    public long monotonicMs() {
        return monotonic.nowMs();
    }

    /** Nanoseconds of the same clock, for durations finer than a millisecond (request times). */
    public long monotonicNanos() {
        return manual ? TimeUnit.MILLISECONDS.toNanos(monotonic.nowMs()) : System.nanoTime();
    }

    /** Milliseconds since the epoch, for timestamps and ages. */
    public long wallClockMs() {
        return manual ? monotonic.nowMs() + wallOffsetMs : System.currentTimeMillis();
    }

    /** The monotonic clock a purgatory's timer runs on. */
    public Clock purgatoryClock() {
        return monotonic;
    }

    /** The wall clock as a {@link java.time.Clock}, for the logs. */
    public java.time.Clock wallClock() {
        return wallClock;
    }

    /**
     * Runs {@code task} on {@code executor} every {@code periodMs} after the previous run ended, the first
     * {@code periodMs} from now; shutting the executor down ends it. A task that throws is logged and runs again
     * at its next turn, as a round that failed must not cancel the schedule.
     */
    public void scheduleWithFixedDelay(ScheduledExecutorService executor, String what, long periodMs, Runnable task) {
        Runnable guarded = logFailures(task, e -> LOG.error("{} failed; it runs again in {} ms", what, periodMs, e));
        if (monotonic instanceof ManualClock manualClock) {
            new ManualRounds(manualClock, executor, what, periodMs, guarded).subscribe();
        } else {
            executor.scheduleWithFixedDelay(guarded, periodMs, periodMs, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Runs {@code task} once on {@code executor}, {@code delayMs} from now: on the system clock by the executor's own
     * timer; on a manual clock at the first {@link ManualClock#advance} that reaches it, which waits for it (as for
     * {@link #scheduleWithFixedDelay}), or at once, unwaited, if it is due already (the caller may be that executor's
     * own thread). A task that throws is logged.
     *
     * @throws RejectedExecutionException if the executor is shut down
     */
    public void scheduleOnce(ScheduledExecutorService executor, String what, long delayMs, Runnable task) {
        Runnable guarded = logFailures(task, e -> LOG.error("{} failed", what, e));
        if (monotonic instanceof ManualClock manualClock && delayMs > 0) {
            new ManualOnce(manualClock, executor, what, manualClock.nowMs() + delayMs, guarded).subscribe();
        } else {
            executor.schedule(guarded, Math.max(0, delayMs), TimeUnit.MILLISECONDS);
        }
    }

    /** {@code task}, its failure handed to {@code log} rather than thrown into the executor, which would drop it. */
    private static Runnable logFailures(Runnable task, Consumer<RuntimeException> log) {
        return () -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.accept(e);
            }
        };
    }

    /**
     * Runs {@code task} on {@code executor} and waits for it, for a manual clock's advance; false if the executor is
     * shut down.
     */
    private static boolean runAndWait(ScheduledExecutorService executor, String what, Runnable task) {
        Future<?> run;
        try {
            run = executor.submit(task);
        } catch (RejectedExecutionException stopped) {
            return false;
        }
        try {
            run.get(ROUND_WAIT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("{}: a task made due by the manual clock did not finish", what, e);
        }
        return true;
    }

    private static void unsubscribe(AutoCloseable subscription, String what) {
        try {
            subscription.close();
        } catch (Exception e) {
            LOG.debug("could not unsubscribe {} from the manual clock", what, e);
        }
    }

    /** One task on a manual clock, run by the advance that makes it due. */
    private static final class ManualOnce implements Runnable {
        private final ManualClock clock;
        private final ScheduledExecutorService executor;
        private final String what;
        private final long dueMs;
        private final Runnable task;
        private AutoCloseable subscription;
        private boolean done;

        ManualOnce(ManualClock clock, ScheduledExecutorService executor, String what, long dueMs, Runnable task) {
            this.clock = clock;
            this.executor = executor;
            this.what = what;
            this.dueMs = dueMs;
            this.task = task;
        }

        synchronized void subscribe() {
            subscription = clock.onAdvance(this);
        }

        @Override
        public synchronized void run() {
            if (done || clock.nowMs() < dueMs) {
                return;
            }
            done = true;
            unsubscribe(subscription, what);
            runAndWait(executor, what, task);
        }
    }

    /** One periodic task on a manual clock: each advance that makes a round due runs it and waits for it. */
    private static final class ManualRounds implements Runnable {
        private final ManualClock clock;
        private final ScheduledExecutorService executor;
        private final String what;
        private final long periodMs;
        private final Runnable task;
        private long dueMs;
        private AutoCloseable subscription;

        ManualRounds(ManualClock clock, ScheduledExecutorService executor, String what, long periodMs,
                     Runnable task) {
            this.clock = clock;
            this.executor = executor;
            this.what = what;
            this.periodMs = periodMs;
            this.task = task;
            this.dueMs = clock.nowMs() + periodMs;
        }

        synchronized void subscribe() {
            subscription = clock.onAdvance(this);
        }

        @Override
        public synchronized void run() {
            if (clock.nowMs() < dueMs) {
                return;
            }
            if (!runAndWait(executor, what, task)) {
                unsubscribe(subscription, what);
                return;
            }
            // Fixed delay: the next round is a period after this one, however far the clock jumped.
            dueMs = clock.nowMs() + periodMs;
        }
    }

    /** {@link #wallClockMs} as a {@link java.time.Clock}; the logs ask it for {@code millis()} only. */
    private final class WallClockView extends java.time.Clock {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public java.time.Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException("the broker's clock is in UTC");
        }

        @Override
        public long millis() {
            return wallClockMs();
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis());
        }
    }
}
