package io.minibroker.purgatory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A request that waits in a {@link Purgatory} until it can be answered or its delay runs out.
 *
 * <p>Subclasses implement three callbacks:
 * <ul>
 *   <li>{@link #tryComplete()}: checks whether the operation can be answered now and, if so, calls
 *       {@link #forceComplete()} and returns its result. It may be called from several threads at once (a log
 *       append and a follower fetch checking the same key), so it must be safe to run concurrently; completion
 *       itself is decided by one atomic step, so at most one caller wins.</li>
 *   <li>{@link #onComplete()}: builds and sends the answer. Runs exactly once per operation, on the thread that
 *       completed it, whether by {@link #tryComplete()}, by {@link #forceComplete()} or by expiry.</li>
 *   <li>{@link #onExpiration()}: runs after {@code onComplete()} only when the delay ran out first (Kafka's
 *       order), for expiry-specific bookkeeping such as metrics.</li>
 * </ul>
 * No callback ever runs while a purgatory or timer lock is held, so a callback may itself add to or check any
 * purgatory (Kafka's deadlocks KAFKA-3994, KAFKA-5970 and KAFKA-8334 came from callbacks under such locks).
 */
public abstract class DelayedOperation extends WatchPlaces {

    private static final VarHandle COMPLETED;
    private static final VarHandle PLACES_PUBLISHED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            COMPLETED = lookup.findVarHandle(DelayedOperation.class, "completed", boolean.class);
            PLACES_PUBLISHED = lookup.findVarHandle(DelayedOperation.class, "placesPublished", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through COMPLETED
    private volatile boolean completed;
    /** Set once the watcher has recorded all its places ({@link #publishPlaces()}); read as a volatile. */
    private volatile boolean placesPublished;
    /**
     * Not volatile: it is written before the operation is first tried, and every thread that completes the
     * operation through the purgatory reached it through a slot or a timer bucket published after that write. A
     * caller that completes it concurrently with its own submission may miss the count, as it could when this
     * field was volatile (a write per request that cost a full fence on the submitting thread).
     */
    private PurgatoryStats stats;

    protected DelayedOperation(long delayMs) {
        super(delayMs);
    }

    /** Completes the operation if its condition holds: see the class comment. */
    public abstract boolean tryComplete();

    /** Answers the operation; runs exactly once. */
    protected abstract void onComplete();

    /** Runs once, after {@link #onComplete()}, if the operation expired. */
    protected abstract void onExpiration();

    /**
     * Completes the operation now, whether or not its condition holds. Returns true if this call completed it,
     * false if it was already complete.
     */
    public final boolean forceComplete() {
        return complete(false);
    }

    public final boolean isCompleted() {
        return completed;
    }

    /** {@link #isCompleted()} as an opaque load, for a pass that only gathers hints ({@link WatchChunk#countLive}). */
    final boolean isCompletedOpaque() {
        return (boolean) COMPLETED.getOpaque(this);
    }

    /** Called by the timer when the delay runs out; use {@link #forceComplete()} to complete it yourself. */
    @Override
    public final void run() {
        complete(true);
    }

    private boolean complete(boolean expired) {
        if (!COMPLETED.compareAndSet(this, false, true)) {
            return false;
        }
        cancel();
        if (placesPublished) { // else the watcher, still recording, sees this completion and releases them
            releasePlaces();
        }
        PurgatoryStats owner = stats;
        try {
            onComplete();
            if (expired) {
                onExpiration();
            }
        } finally {
            if (owner != null) {
                owner.recordCompletion(expired);
            }
        }
        return true;
    }

    void attachTo(PurgatoryStats owner) {
        stats = owner;
    }

    /**
     * Publishes the places this operation's watcher recorded. If the operation completed meanwhile, its completion
     * may have skipped them: the completing side writes {@code completed} (a compare-and-set) before reading
     * {@code placesPublished}, and this side writes {@code placesPublished} and then, past the fence, reads
     * {@code completed}; so the completer sees the publication, or this side sees the completion and releases the
     * places itself, or both (emptying a place twice is harmless).
     *
     * <p>The full fence is also the one that orders the slots' release stores ({@link WatchChunk#append}) before
     * the purgatory's second try, which reads the event state: a volatile write alone would not, under the Java
     * memory model, since no checker reads {@code placesPublished} (x86 happens to give a volatile write a full
     * fence, AArch64 does not). Hence a release write and one fence here, the cost of the volatile write before
     * on x86: do not drop the fence.
     */
    void publishPlaces() {
        PLACES_PUBLISHED.setRelease(this, true);
        VarHandle.fullFence();
        if (isCompleted()) {
            releasePlaces();
        }
    }
}
