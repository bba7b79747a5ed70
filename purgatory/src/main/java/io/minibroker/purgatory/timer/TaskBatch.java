package io.minibroker.purgatory.timer;

import java.util.Arrays;

/**
 * The tasks a driver took out of due buckets, held in an array of its own rather than chained through the
 * tasks, so that a task cancelled and added again while it waits here cannot disturb the rest of the batch.
 * Grows as needed and is reused, so steady expiry allocates nothing.
 */
final class TaskBatch {

    private TimerTask[] tasks = new TimerTask[256];
    private int size;

    void add(TimerTask task) {
        if (size == tasks.length) {
            tasks = Arrays.copyOf(tasks, size * 2);
        }
        tasks[size++] = task;
    }

    int size() {
        return size;
    }

    TimerTask get(int index) {
        return tasks[index];
    }

    /** Forgets the tasks, so the batch does not keep them reachable. */
    void clear() {
        Arrays.fill(tasks, 0, size, null);
        size = 0;
    }
}
