package io.minibroker.purgatory.lock;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A spin lock embedded in the object it guards, for the purgatory's short critical sections (linking a timer
 * task, appending a watcher: a handful of pointer writes), with nothing under the lock that can block. The
 * longest ones, a watcher list's sweep, purge or detach, scan its slots; they run on the reaper, once per purge.
 *
 * <p>Why not a monitor: taking this lock is one compare-and-set and releasing it a release store, where a
 * monitor costs a compare-and-set on entry and another on exit; a watched operation takes a watcher-list lock per
 * key and a timer-bucket lock, so that difference is paid several times per request. A waiter spins briefly and
 * then yields, so a holder that lost its core is not starved. Not reentrant.
 */
public abstract class SpinLocked {

    private static final int SPINS_BEFORE_YIELD = 64;
    private static final VarHandle LOCKED;

    static {
        try {
            LOCKED = MethodHandles.lookup().findVarHandle(SpinLocked.class, "locked", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through LOCKED
    private volatile int locked;

    protected final void lock() {
        int spins = 0;
        while (!LOCKED.compareAndSet(this, 0, 1)) {
            if (++spins < SPINS_BEFORE_YIELD) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    protected final void unlock() {
        LOCKED.setRelease(this, 0);
    }
}
