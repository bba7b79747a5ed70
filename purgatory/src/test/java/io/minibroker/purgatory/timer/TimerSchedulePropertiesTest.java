package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.ManualClock;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random schedules of add / cancel / advance against small wheels (so that many overflow levels are in play):
 * after every step, each task has run exactly when a simple model says it must.
 */
class TimerSchedulePropertiesTest {

    sealed interface Step permits Add, Cancel, Advance {
    }

    record Add(long delayMs) implements Step {
    }

    record Cancel(int which) implements Step {
    }

    record Advance(long byMs) implements Step {
    }

    @Provide
    Arbitrary<List<Step>> schedules() {
        Arbitrary<Step> add = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 40),
                Arbitraries.longs().between(0, 5_000),
                Arbitraries.longs().between(0, 2_000_000)).map(Add::new);
        Arbitrary<Step> cancel = Arbitraries.integers().between(0, 1_000).map(Cancel::new);
        Arbitrary<Step> advance = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 3),
                Arbitraries.longs().between(0, 200),
                Arbitraries.longs().between(0, 3_000_000)).map(Advance::new);
        return Arbitraries.frequencyOf(
                Tuple.of(5, add), Tuple.of(2, cancel), Tuple.of(4, advance))
                .list().ofMinSize(1).ofMaxSize(200);
    }

    @Property(tries = 400)
    void everyTaskRunsExactlyOnceAtItsRoundedDeadlineUnlessCancelled(
            @ForAll("schedules") List<Step> steps,
            @ForAll @LongRange(min = 1, max = 7) long tickMs,
            @ForAll @IntRange(min = 2, max = 8) int wheelSize,
            @ForAll @LongRange(min = -1_000_000, max = 1_000_000) long startMs) {
        ManualClock clock = new ManualClock(startMs);
        HierarchicalTimer timer = new HierarchicalTimer(clock, tickMs, wheelSize);
        clock.onAdvance(timer::expireDue);
        List<RecordingTask> tasks = new ArrayList<>();
        List<Long> deadlines = new ArrayList<>();
        List<Boolean> cancelled = new ArrayList<>();

        for (Step step : steps) {
            if (step instanceof Add add) {
                RecordingTask task = new RecordingTask(clock, add.delayMs());
                tasks.add(task);
                deadlines.add(clock.nowMs() + add.delayMs());
                cancelled.add(false);
                timer.add(task);
            } else if (step instanceof Cancel cancel) {
                if (!tasks.isEmpty()) {
                    int i = cancel.which() % tasks.size();
                    boolean wasPending = tasks.get(i).runs() == 0 && !cancelled.get(i);
                    assertThat(tasks.get(i).cancel()).isEqualTo(wasPending);
                    cancelled.set(i, true);
                }
            } else if (step instanceof Advance advance) {
                clock.advance(advance.byMs());
            }
            long now = clock.nowMs();
            long pending = 0;
            for (int i = 0; i < tasks.size(); i++) {
                RecordingTask task = tasks.get(i);
                long deadline = deadlines.get(i);
                long latest = Math.floorDiv(deadline + tickMs - 1, tickMs) * tickMs;
                if (cancelled.get(i) && task.runs() == 0) {
                    continue;
                }
                if (latest <= now) {
                    assertThat(task.runs()).as("task %d (deadline %d) at %d", i, deadline, now).isEqualTo(1);
                    assertThat(task.runTimesMs.get(0)).as("never early").isGreaterThanOrEqualTo(deadline);
                } else if (deadline > now) {
                    assertThat(task.runs()).as("task %d not due before %d, now %d", i, deadline, now).isZero();
                    pending++;
                } else if (task.runs() == 0) {
                    pending++; // between the deadline and the end of its tick: may run now or at the tick's end
                }
            }
            assertThat(timer.size()).as("pending count").isEqualTo(pending);
        }
    }

    @Property(tries = 200)
    void cancelledTasksNeverRun(@ForAll @Size(min = 1, max = 60) List<@LongRange(min = 0, max = 10_000) Long> delays,
                                @ForAll @LongRange(min = 1, max = 20_000) long advanceMs) {
        ManualClock clock = new ManualClock();
        HierarchicalTimer timer = new HierarchicalTimer(clock, 1, 4);
        clock.onAdvance(timer::expireDue);
        List<RecordingTask> tasks = new ArrayList<>();
        for (long delay : delays) {
            RecordingTask task = new RecordingTask(clock, delay);
            timer.add(task);
            tasks.add(task);
        }
        for (RecordingTask task : tasks) {
            task.cancel();
        }
        clock.advance(advanceMs);

        for (RecordingTask task : tasks) {
            assertThat(task.runs()).isEqualTo(task.delayMs() == 0 ? 1 : 0);
        }
        assertThat(timer.size()).isZero();
    }
}
