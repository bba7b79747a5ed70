package io.minibroker.benchmarks.purgatory;

import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * Whether each request's condition holds (its "append has happened"), for {@code event} mode: the completion
 * thread sets it and the operation's tryComplete reads it.
 *
 * <p>It lives outside the operations so that the completion thread's queue need not hold the operations
 * themselves in event mode: when that thread falls behind, its backlog then costs a small entry per request
 * instead of keeping every operation, completed or not, reachable (which ran a 200 MB heap out of memory).
 */
public final class Conditions {

    private final AtomicIntegerArray holds;

    public Conditions(int requests) {
        this.holds = new AtomicIntegerArray(requests);
    }

    public void satisfy(int request) {
        holds.set(request, 1);
    }

    public boolean holds(int request) {
        return holds.get(request) != 0;
    }
}
