package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Edges of the wheel, on a manual clock: each test knows exactly when every task must run. */
class HierarchicalTimerTest {

    private static final int WHEEL = 20;

    private final ManualClock clock = new ManualClock(1_000);
    private final HierarchicalTimer timer = new HierarchicalTimer(clock, 1, WHEEL);

    {
        clock.onAdvance(timer::expireDue);
    }

    private RecordingTask schedule(long delayMs) {
        RecordingTask task = new RecordingTask(clock, delayMs);
        timer.add(task);
        return task;
    }

    /** Advances one millisecond at a time and returns the time at which the task first ran. */
    private long advanceUntilRun(RecordingTask task, long limitMs) {
        for (long i = 0; i <= limitMs && task.runs() == 0; i++) {
            clock.advance(1);
        }
        assertThat(task.runs()).as("ran within %d ms", limitMs).isEqualTo(1);
        return task.runTimesMs.get(0);
    }

    @ParameterizedTest(name = "delay {0} ms runs exactly at its deadline")
    @ValueSource(longs = {1, 2, WHEEL - 1, WHEEL, WHEEL + 1, 2 * WHEEL - 1, 2 * WHEEL, WHEEL * WHEEL - 1,
            WHEEL * WHEEL, WHEEL * WHEEL + 1, 8_000, WHEEL * WHEEL * WHEEL + 7})
    void runsAtTheDeadlineNeverEarlier(long delayMs) {
        long start = clock.nowMs();
        RecordingTask task = schedule(delayMs);

        long ranAt = advanceUntilRun(task, delayMs + 1);

        assertThat(ranAt).isEqualTo(start + delayMs);
        assertThat(timer.size()).isZero();
    }

    @Test
    void zeroDelayRunsOnTheAddingThreadBeforeAddReturns() {
        RecordingTask task = schedule(0);

        assertThat(task.runs()).isEqualTo(1);
        assertThat(task.runThread).isSameAs(Thread.currentThread());
        assertThat(timer.size()).isZero();
    }

    @Test
    void anOlderNowBringsTheDeadlineForwardAndRunsADueTaskAtOnce() {
        long staleNowMs = clock.nowMs();
        clock.advance(10);
        RecordingTask later = new RecordingTask(clock, 15);
        RecordingTask due = new RecordingTask(clock, 5);

        timer.add(later, staleNowMs);
        timer.add(due, staleNowMs);

        assertThat(due.runs()).as("deadline already passed").isEqualTo(1);
        assertThat(due.runThread).isSameAs(Thread.currentThread());
        assertThat(advanceUntilRun(later, 15)).as("15 ms after the stale now, not after the clock")
                .isEqualTo(staleNowMs + 15);
        assertThat(timer.size()).isZero();
    }

    @Test
    void tasksDueAtTheSameTickAllRunInOneAdvance() {
        RecordingTask a = schedule(5);
        RecordingTask b = schedule(5);
        RecordingTask later = schedule(6);

        clock.advance(5);

        assertThat(a.runs()).isEqualTo(1);
        assertThat(b.runs()).isEqualTo(1);
        assertThat(later.runs()).isZero();
        assertThat(timer.size()).isEqualTo(1);
    }

    @Test
    void aJumpFarAheadRunsEverythingDueAcrossAllLevelsExactlyOnce() {
        List<RecordingTask> tasks = List.of(schedule(1), schedule(WHEEL), schedule(WHEEL * WHEEL + 3),
                schedule(1_000_000), schedule(50_000_000));
        RecordingTask notYet = schedule(50_000_002);

        clock.advance(50_000_001);

        assertThat(tasks).allSatisfy(task -> assertThat(task.runs()).isEqualTo(1));
        assertThat(notYet.runs()).isZero();
        clock.advance(1);
        assertThat(notYet.runs()).isEqualTo(1);
        assertThat(timer.size()).isZero();
    }

    @Test
    void aTaskAddedAfterTheClockJumpedWithoutAnyDueBucketIsStillOnTime() {
        clock.advance(123_456); // nothing scheduled: the wheels catch up with the clock anyway
        long start = clock.nowMs();
        RecordingTask task = schedule(WHEEL + 3);

        assertThat(advanceUntilRun(task, WHEEL + 4)).isEqualTo(start + WHEEL + 3);
    }

    @Test
    void cancelBeforeExpiryPreventsTheRun() {
        RecordingTask task = schedule(10);
        clock.advance(9);

        assertThat(task.cancel()).isTrue();
        assertThat(timer.size()).isZero();
        clock.advance(100);
        assertThat(task.runs()).isZero();
        assertThat(task.isCancelled()).isTrue();
    }

    @Test
    void cancelInAnOverflowWheelPreventsTheRunAfterItWouldHaveCascaded() {
        RecordingTask task = schedule(WHEEL * WHEEL + 5);
        clock.advance(WHEEL * WHEEL - 1);

        assertThat(task.cancel()).isTrue();
        clock.advance(WHEEL * WHEEL);
        assertThat(task.runs()).isZero();
    }

    @Test
    void cancelAfterExpiryChangesNothing() {
        RecordingTask task = schedule(3);
        clock.advance(3);

        assertThat(task.cancel()).isFalse();
        assertThat(task.runs()).isEqualTo(1);
        assertThat(timer.size()).isZero();
    }

    @Test
    void cancelTwiceIsHarmless() {
        RecordingTask task = schedule(3);

        assertThat(task.cancel()).isTrue();
        assertThat(task.cancel()).isFalse();
        assertThat(timer.size()).isZero();
    }

    @Test
    void aCancelledTaskCanBeAddedAgainAndRunsOnItsNewDeadline() {
        RecordingTask task = schedule(10);
        clock.advance(4);
        task.cancel();

        long readdedAt = clock.nowMs();
        timer.add(task);

        assertThat(task.isCancelled()).isFalse();
        assertThat(advanceUntilRun(task, 11)).isEqualTo(readdedAt + 10);
    }

    @Test
    void aTaskThatRanCanBeAddedAgain() {
        RecordingTask task = schedule(2);
        clock.advance(2);
        timer.add(task);
        clock.advance(2);

        assertThat(task.runTimesMs).containsExactly(1_002L, 1_004L);
    }

    @Test
    void addingAScheduledTaskAgainIsRefused() {
        RecordingTask task = schedule(10);

        assertThatThrownBy(() -> timer.add(task)).isInstanceOf(IllegalStateException.class);
        assertThat(timer.size()).isEqualTo(1);
    }

    @ParameterizedTest(name = "tick {0} ms rounds deadlines up")
    @ValueSource(longs = {2, 3, 7, 10})
    void coarseTicksRoundDeadlinesUpNeverDown(long tickMs) {
        ManualClock coarse = new ManualClock(1_001);
        HierarchicalTimer coarseTimer = new HierarchicalTimer(coarse, tickMs, 4);
        coarse.onAdvance(coarseTimer::expireDue);
        for (long delay = 1; delay <= 3 * tickMs * 4 * 4; delay++) {
            RecordingTask task = new RecordingTask(coarse, delay);
            long deadline = coarse.nowMs() + delay;
            coarseTimer.add(task);
            while (task.runs() == 0) {
                coarse.advance(1);
            }
            assertThat(task.runTimesMs.get(0))
                    .as("delay %d", delay)
                    .isGreaterThanOrEqualTo(deadline)
                    .isLessThan(deadline + tickMs);
        }
    }

    @ParameterizedTest(name = "clock starting at {0}")
    @ValueSource(longs = {-1_000_000_007L, -25, -1, Long.MIN_VALUE / 8, Long.MAX_VALUE / 8})
    void negativeAndExtremeClockValuesKeepExactDeadlines(long startMs) {
        ManualClock odd = new ManualClock(startMs);
        HierarchicalTimer oddTimer = new HierarchicalTimer(odd, 1, 8);
        odd.onAdvance(oddTimer::expireDue);
        RecordingTask soon = new RecordingTask(odd, 3);
        RecordingTask acrossLevels = new RecordingTask(odd, 8 * 8 + 5);
        oddTimer.add(soon);
        oddTimer.add(acrossLevels);

        for (int i = 0; i < 8 * 8 + 5; i++) {
            odd.advance(1);
        }

        assertThat(soon.runTimesMs).containsExactly(startMs + 3);
        assertThat(acrossLevels.runTimesMs).containsExactly(startMs + 8 * 8 + 5);
    }

    @Test
    void hugeDelaysAreCappedInsteadOfOverflowing() {
        RecordingTask forever = schedule(Long.MAX_VALUE);
        clock.advance(1_000_000_000L);

        assertThat(forever.runs()).isZero();
        assertThat(timer.size()).isEqualTo(1);
        assertThat(forever.cancel()).isTrue();
    }

    @Test
    void aThrowingTaskDoesNotStopTheOthers() {
        TimerTask throwing = new TimerTask(1) {
            @Override
            public void run() {
                throw new IllegalStateException("boom");
            }
        };
        timer.add(throwing);
        RecordingTask after = schedule(1);

        clock.advance(1);

        assertThat(after.runs()).isEqualTo(1);
    }

    @Test
    void anErrorFromATaskDoesNotStopTheOthersEither() {
        timer.add(new TimerTask(1) {
            @Override
            public void run() {
                throw new AssertionError("boom");
            }
        });
        RecordingTask after = schedule(1);

        clock.advance(1);

        assertThat(after.runs()).isEqualTo(1);
        assertThat(timer.size()).isZero();
    }

    @Test
    void aTaskCancelledAndAddedAgainByAnotherTasksRunKeepsTheBatchIntact() {
        RecordingTask readded = schedule(5);
        RecordingTask last = schedule(5);
        TimerTask first = new TimerTask(5) {
            @Override
            public void run() {
                assertThat(readded.cancel()).as("taken before it ran").isTrue();
                timer.add(readded);
            }
        };
        // Link order in the bucket: first, readded, last — the first one's run reschedules the second.
        timer.removeAll();
        timer.add(first);
        timer.add(readded);
        timer.add(last);

        clock.advance(5);

        assertThat(readded.runs()).as("not run on its cancelled schedule").isZero();
        assertThat(last.runs()).as("the rest of the batch still runs").isEqualTo(1);
        clock.advance(5);
        assertThat(readded.runTimesMs).containsExactly(1_010L);
        assertThat(timer.size()).isZero();
    }

    @Test
    void aTaskMayAdvanceTheManualClockFromItsOwnRun() {
        RecordingTask nested = schedule(7);
        timer.add(new TimerTask(3) {
            @Override
            public void run() {
                clock.advance(4); // re-enters the driver: nothing is held while a task runs
            }
        });

        clock.advance(3);

        assertThat(nested.runTimesMs).containsExactly(1_007L);
        assertThat(timer.size()).isZero();
    }

    @Test
    void removeAllReturnsPendingTasksWithoutRunningThem() {
        RecordingTask a = schedule(5);
        RecordingTask b = schedule(5_000);
        RecordingTask cancelled = schedule(7);
        cancelled.cancel();

        assertThat(timer.removeAll()).containsExactlyInAnyOrder(a, b);
        assertThat(timer.size()).isZero();
        clock.advance(10_000);
        assertThat(a.runs() + b.runs()).isZero();
    }

    @Test
    void rejectsMeaninglessSettings() {
        assertThatThrownBy(() -> new HierarchicalTimer(clock, 0, 20)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HierarchicalTimer(clock, 1, 1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RecordingTask(clock, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
