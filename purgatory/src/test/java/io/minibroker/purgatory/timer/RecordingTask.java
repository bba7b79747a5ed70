package io.minibroker.purgatory.timer;

import io.minibroker.purgatory.time.Clock;

import java.util.ArrayList;
import java.util.List;

/** A task that remembers when (by the clock) and on which thread each of its runs happened. */
final class RecordingTask extends TimerTask {

    private final Clock clock;
    final List<Long> runTimesMs = new ArrayList<>();
    volatile Thread runThread;

    RecordingTask(Clock clock, long delayMs) {
        super(delayMs);
        this.clock = clock;
    }

    @Override
    public void run() {
        runTimesMs.add(clock.nowMs());
        runThread = Thread.currentThread();
    }

    int runs() {
        return runTimesMs.size();
    }
}
