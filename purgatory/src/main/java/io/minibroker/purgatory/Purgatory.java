package io.minibroker.purgatory;

import io.minibroker.purgatory.time.Clock;
import io.minibroker.purgatory.time.ManualClock;
import io.minibroker.purgatory.time.SystemClock;
import io.minibroker.purgatory.timer.HierarchicalTimer;
import io.minibroker.purgatory.timer.TimerTask;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where operations of one request type wait (produce, fetch, join, heartbeat...): each is watched on keys and
 * held in a {@link HierarchicalTimer} until an event on a key lets it complete ({@link #checkAndComplete}) or
 * its delay runs out.
 *
 * <p>The life of an operation: {@link #tryCompleteElseWatch} tries it once; if it cannot complete, adds it to the
 * timer, watches it on every key and tries once more (an event may have slipped in between). (Kafka adds it to the
 * timer last; here the add comes first so that the watch's one fence also orders the timer's link, see the method;
 * an operation with a zero delay, which the add would expire at once, still goes last.)
 * When it completes, from whichever thread, it leaves the timer at once (O(1)) and clears its slot in every watcher
 * list (O(keys), no lock), so the purgatory holds no reference to it afterwards.
 *
 * <p>Purges keep the seed design's trigger: E, an estimate of the operations in the purgatory, grows by one for
 * each operation watched; the reaper, after each advance of the timer, purges when E minus the pending (timer)
 * count exceeds {@code purgeInterval}, having first reset E to that pending count. Because completed operations
 * have already left the lists, a purge finds none there: it drops the emptied chunks at the head of a list that
 * was appended to since the previous purge (O(1) while its first chunk holds an operation), sweeps the slots of a
 * list that was not, and detaches the lists that are empty (see {@link WatcherList}). (Kafka's purge walks every
 * entry of every list, completed or not, which is what limits it at high rates.)
 *
 * <p>Time is driven by a reaper thread on a real clock, or by the test's {@link ManualClock#advance} on a
 * manual one (no thread at all then).
 */
public final class Purgatory<T extends DelayedOperation> implements AutoCloseable {

    /** How long the reaper sleeps at most when nothing is due, so an idle purgatory still purges now and then. */
    private static final long REAPER_MAX_WAIT_MS = 200;

    private static final System.Logger LOG = System.getLogger(Purgatory.class.getName());
    private static final VarHandle ESTIMATED_OPERATIONS;

    static {
        try {
            ESTIMATED_OPERATIONS = MethodHandles.lookup().findVarHandle(Purgatory.class, "estimatedOperations", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final int purgeInterval;
    private final Clock clock;
    private final HierarchicalTimer timer;
    private final ConcurrentHashMap<Object, WatcherList>[] shards;
    /**
     * E of the class comment. Counted with an opaque read and write, not an atomic addition: it only decides when
     * to purge, so an increment lost to a racing one (a purge a little later) or a reset overwritten by one (a
     * purge a little sooner) costs nothing, while an atomic addition cost every watch a locked instruction on a
     * line that every watching thread and the reaper share.
     */
    @SuppressWarnings("unused") // accessed through ESTIMATED_OPERATIONS
    private long estimatedOperations;
    private final PurgatoryStats stats = new PurgatoryStats();
    private final Thread reaper;
    private final AutoCloseable manualSubscription;
    private volatile boolean closed;

    private Purgatory(Builder builder) {
        this.name = builder.name;
        this.purgeInterval = builder.purgeInterval;
        this.clock = builder.clock;
        this.timer = new HierarchicalTimer(builder.clock, builder.tickMs, builder.wheelSize);
        @SuppressWarnings("unchecked")
        ConcurrentHashMap<Object, WatcherList>[] maps = new ConcurrentHashMap[builder.shards];
        for (int i = 0; i < maps.length; i++) {
            maps[i] = new ConcurrentHashMap<>();
        }
        this.shards = maps;
        if (builder.clock instanceof ManualClock manual) {
            this.reaper = null;
            this.manualSubscription = manual.onAdvance(this::expireAndMaybePurge);
        } else {
            this.manualSubscription = null;
            this.reaper = new Thread(this::reap, "ExpirationReaper-" + name);
            this.reaper.setDaemon(true);
            this.reaper.start();
        }
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public String name() {
        return name;
    }

    /**
     * Completes {@code operation} now if it can, otherwise watches it on every key and starts its timeout.
     * Returns true if it completed during this call (by this thread or another).
     *
     * <p>It tries at most twice, whatever the number of keys: once before watching and once after watching on
     * all of them, which closes the gap in which an event could fire between the first try and the watch.
     *
     * <p>If a key's {@code hashCode} or {@code equals} throws, so does this call; the operation stays watched on the
     * keys before that one and its timeout runs, so it still ends, by an event or by expiry.
     *
     * <p>An operation is passed here once, by one thread. A later call on an operation still watched is refused
     * with an exception, but two calls racing on the same operation are not detected: both would add it to the
     * timer, which may then link it twice and corrupt its lists (see {@link HierarchicalTimer#add(TimerTask, long)}).
     */
    public boolean tryCompleteElseWatch(T operation, List<?> keys) {
        if (keys.isEmpty()) {
            throw new IllegalArgumentException("an operation must be watched on at least one key");
        }
        if (operation.places() > 0) {
            throw new IllegalStateException("an operation is watched once: " + operation);
        }
        long nowMs = clock.nowMs(); // the timeout runs from this call
        operation.attachTo(stats);
        if (operation.tryComplete()) {
            return true;
        }
        // A zero delay would expire the operation inside the add, before the watch and the second try that
        // Kafka gives it; so it goes into the timer last, as in Kafka (see below).
        boolean timedAfterWatch = operation.delayMs() == 0;
        if (!timedAfterWatch) {
            // Into the timer before the watch, so that the publication's full fence below also orders the timer's
            // link (a release store, no compare-and-set, for a new add) before this thread's look at the operation's
            // state: a completion racing the add either finds the operation linked and cancels it, or is seen here
            // (see TimerTask).
            timer.add(operation, nowMs);
        }
        int n = keys.size();
        int watchedKeys = 0;
        try {
            while (watchedKeys < n && !operation.isCompleted()) {
                watch(keys.get(watchedKeys), operation);
                watchedKeys++;
            }
        } finally { // a key whose hashCode or equals throws must not strand the slots already taken
            if (operation.places() > 0) {
                // One publication for all keys; its full fence also orders the slot writes before the second
                // try's reads of the event state (WatchChunk#append says why it is needed).
                operation.publishPlaces();
            } else {
                VarHandle.fullFence(); // no place taken: completed already, and the timer's link needs ordering
            }
            // Here, past the fence, even when a key threw: its completer may have missed the timer's link.
            if (operation.isCompleted()) {
                operation.cancel(); // idempotent if the completer did not miss it
            } else if (timedAfterWatch && watchedKeys < n) {
                timer.add(operation, nowMs); // a key threw: the zero timeout must still end the operation
            }
        }
        countWatched();
        if (operation.isCompleted() || operation.tryComplete()) {
            return true;
        }
        if (timedAfterWatch) {
            // Due at once, so it normally expires right here. Only a wheel behind the clock (a reaper not yet
            // awake) links it, in a bucket already due that the woken reaper expires; a completer that misses that
            // link leaves a completed operation there until then, which its run ignores: no fence needed here.
            timer.add(operation, nowMs);
            if (operation.isCompleted()) {
                operation.cancel();
            }
        }
        if (closed) {
            operation.run(); // close() may have emptied the timer before our add: expire it ourselves
        }
        return operation.isCompleted();
    }

    /**
     * Tries to complete every operation watched on {@code key}, as after an event on that key (an append, a
     * high-watermark move, a member joining). Returns how many this call completed.
     *
     * <p>The caller writes the event's state before calling, with a volatile write or an atomic update (the
     * log's offsets and high watermark are volatile), or under a lock it releases before calling. That write is
     * the checker's half of the ordering that {@link WatchChunk#append} describes: the list's head and the
     * chunks' {@code next} links are volatile reads, which the memory model keeps after an earlier volatile write
     * (or unlock) of the same thread, and every slot read comes after one of them; so a watcher that did not see
     * the event in its second try has its slot seen here. A plain or release write of the state would not do.
     */
    public int checkAndComplete(Object key) {
        WatcherList list = shardOf(key).get(key);
        if (list == null) {
            return 0;
        }
        int completed = 0;
        boolean waiting = false;
        for (WatchChunk chunk = list.head(); chunk != null; chunk = chunk.next) {
            int n = chunk.capacity(); // past the used slots, all read null
            // Two passes: the first only loads each operation's state, loads that do not depend on one another,
            // so the processor fetches many operations' cache lines at once; the second tries them, from cache.
            // In one pass each try waits for its own operation's line to arrive.
            if (chunk.countLive() == 0) {
                continue;
            }
            for (int i = 0; i < n; i++) {
                DelayedOperation op = chunk.get(i);
                if (op != null && !op.isCompleted()) {
                    if (op.tryComplete()) {
                        completed++;
                    } else {
                        waiting |= !op.isCompleted();
                    }
                }
            }
        }
        if (!waiting) {
            list.detachIfEmpty();
        }
        return completed;
    }

    /**
     * Stops watching {@code key} and returns the operations that were pending on it, each taken out of the timer
     * too, for the caller to complete (for example with an error when a partition moves away).
     */
    @SuppressWarnings("unchecked")
    public List<T> cancelForKey(Object key) {
        WatcherList list = shardOf(key).get(key);
        if (list == null) {
            return List.of();
        }
        List<DelayedOperation> pending = list.detachAll();
        for (DelayedOperation op : pending) {
            op.cancel();
        }
        return (List<T>) (List<?>) pending;
    }

    /** Operations waiting for their timeout (Kafka's NumDelayedOperations). */
    public long numDelayed() {
        return timer.size();
    }

    /**
     * Watch entries across all keys, counting an operation once per key (Kafka's PurgatorySize, which in Kafka also
     * counts completed operations not yet purged; here there are none). Exact when no watch or completion is under
     * way, otherwise a recent value.
     *
     * <p>O(slots), like Kafka's, which sums the sizes of its watcher queues: a gauge is read a few times a minute,
     * while a running count cost every request two atomic additions (one per watch, one per completion) on a
     * counter the watching and the completing threads share.
     */
    public long watched() {
        long watched = 0;
        for (ConcurrentHashMap<Object, WatcherList> shard : shards) {
            for (WatcherList list : shard.values()) {
                watched += list.countWatched();
            }
        }
        return watched;
    }

    public long completions() {
        return stats.completions.sum();
    }

    public long expirations() {
        return stats.expirations.sum();
    }

    public long purges() {
        return stats.purges.sum();
    }

    /** Whether {@link #close()} has begun: set before the waiting operations are expired. */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Stops the reaper at once and expires every operation still waiting, each exactly once; an operation
     * watched after this point expires as soon as it would have been added to the timer.
     */
    @Override
    public void close() throws InterruptedException {
        closed = true;
        if (reaper != null) {
            timer.wakeUp(); // not an interrupt: that would also hit a user callback running on the reaper
            if (Thread.currentThread() != reaper) { // a callback on the reaper may close its own purgatory
                reaper.join();
            }
        } else {
            closeQuietly(manualSubscription);
        }
        for (TimerTask task : timer.removeAll()) {
            try {
                task.run();
            } catch (Throwable t) { // one failing callback must not leave the others unanswered
                LOG.log(System.Logger.Level.ERROR, "purgatory " + name + ": expiring " + task + " at close threw", t);
            }
        }
    }

    /** Appends the operation to the key's list, creating the list if need be, and records its place in it. */
    private void watch(Object key, DelayedOperation operation) {
        ConcurrentHashMap<Object, WatcherList> shard = shardOf(key);
        while (true) {
            WatcherList list = shard.get(key);
            if (list == null) {
                WatcherList fresh = new WatcherList(key, shard);
                list = shard.putIfAbsent(key, fresh);
                if (list == null) {
                    list = fresh;
                }
            }
            if (list.add(operation)) {
                return;
            }
            list.removeFromShard(); // detached by a check or purge that has not yet removed it; help and retry
        }
    }

    /** Adds one to E, counted even for an operation that completed midway: its emptied slots need a purge too. */
    private void countWatched() {
        ESTIMATED_OPERATIONS.setOpaque(this, (long) ESTIMATED_OPERATIONS.getOpaque(this) + 1);
    }

    private ConcurrentHashMap<Object, WatcherList> shardOf(Object key) {
        int h = key.hashCode();
        return shards[(h ^ (h >>> 16)) & (shards.length - 1)];
    }

    private void reap() {
        while (!closed) {
            try {
                timer.advanceClock(REAPER_MAX_WAIT_MS);
                maybePurge();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return; // nobody but the JVM's own shutdown interrupts this thread
            } catch (Throwable t) { // the reaper must outlive any failure, or no timeout would ever fire again
                LOG.log(System.Logger.Level.ERROR, "purgatory " + name + ": reaper step failed; carrying on", t);
            }
        }
    }

    private void expireAndMaybePurge() {
        timer.expireDue();
        maybePurge();
    }

    private void maybePurge() {
        long pending = timer.size();
        if ((long) ESTIMATED_OPERATIONS.getOpaque(this) - pending > purgeInterval) {
            ESTIMATED_OPERATIONS.setOpaque(this, pending);
            for (ConcurrentHashMap<Object, WatcherList> shard : shards) {
                for (WatcherList list : shard.values()) {
                    list.purge();
                }
            }
            stats.purges.increment();
        }
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "could not unsubscribe from the manual clock", e);
        }
    }

    /** Settings of a purgatory; defaults are Kafka's (tick 1 ms, 20 buckets, purge interval 1000). */
    public static final class Builder {
        private final String name;
        private Clock clock = SystemClock.INSTANCE;
        private long tickMs = 1;
        private int wheelSize = 20;
        private int purgeInterval = 1000;
        private int shards = 32;

        private Builder(String name) {
            this.name = name;
        }

        public Builder clock(Clock value) {
            this.clock = value;
            return this;
        }

        public Builder tickMs(long value) {
            this.tickMs = value;
            return this;
        }

        public Builder wheelSize(int value) {
            this.wheelSize = value;
            return this;
        }

        /** Kafka's {@code *.purgatory.purge.interval.requests}. */
        public Builder purgeInterval(int value) {
            this.purgeInterval = value;
            return this;
        }

        /** Number of watcher-list shards; rounded up to a power of two. */
        public Builder shards(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("shards must be at least 1: " + value);
            }
            this.shards = value == 1 ? 1 : Integer.highestOneBit(value - 1) << 1;
            return this;
        }

        public <T extends DelayedOperation> Purgatory<T> build() {
            return new Purgatory<>(this);
        }
    }
}
