package io.minibroker.broker.produce;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;

/** A disk executor whose work waits until the test runs it: a disk as slow as the test likes. */
final class HeldDisk implements Executor {

    private final Queue<Runnable> held = new ArrayDeque<>();

    @Override
    public void execute(Runnable task) {
        held.add(task);
    }

    /** Runs what was handed over so far, in order; answers how many tasks ran. */
    int runHeld() {
        int ran = 0;
        for (Runnable task; (task = held.poll()) != null; ran++) {
            task.run();
        }
        return ran;
    }
}
