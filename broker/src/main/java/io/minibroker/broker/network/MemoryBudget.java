package io.minibroker.broker.network;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Bytes that connections may hold for requests they are still reading or have queued unserved, shared by all of
 * them: the role of Kafka's {@code MemoryPool} behind {@code queued.max.request.bytes}. A connection reserves a whole frame's size once its
 * size prefix is read and before it buffers the frame's bytes, as Kafka's selector allocates a receive's buffer; when
 * the budget is spent it waits, and is woken when bytes are released. Granting whole frames (not bytes as they
 * arrive) means connections that got their share always finish, so partial frames can never deadlock the budget.
 */
public final class MemoryBudget {

    private final long limit;
    private long reserved;
    /** Who waits for bytes, woken (all of them: each retries) when some are released. */
    private final Set<Runnable> waiting = new LinkedHashSet<>();

    /** {@code limit} in bytes; {@link Long#MAX_VALUE} for none. */
    public MemoryBudget(long limit) {
        if (limit <= 0) {
            throw new IllegalArgumentException("a budget needs a positive limit, not " + limit);
        }
        this.limit = limit;
    }

    /**
     * Reserves {@code bytes}, or, when that would go past the limit, reserves nothing and remembers {@code wakeUp}
     * to run once bytes were released (on the releasing thread: it should only hand work to its own thread).
     */
    public synchronized boolean tryReserve(long bytes, Runnable wakeUp) {
        if (bytes > limit - reserved) {
            waiting.add(wakeUp);
            return false;
        }
        reserved += bytes;
        return true;
    }

    /**
     * Counts {@code bytes} that are in memory already (a whole frame queued behind a request being served), past the
     * limit if need be: reservations then wait until enough is released.
     */
    public synchronized void hold(long bytes) {
        reserved += bytes;
    }

    /** Forgets a waiter whose connection closed. */
    public synchronized void cancel(Runnable wakeUp) {
        waiting.remove(wakeUp);
    }

    public void release(long bytes) {
        List<Runnable> woken;
        synchronized (this) {
            reserved -= bytes;
            if (waiting.isEmpty()) {
                return;
            }
            woken = new ArrayList<>(waiting);
            waiting.clear();
        }
        woken.forEach(Runnable::run);
    }

    public synchronized long reserved() {
        return reserved;
    }

    public long limit() {
        return limit;
    }
}
