package io.minibroker.broker.share;

import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A ShareFetch waiting for records it can acquire, or {@code MaxWaitMs} (Kafka's DelayedShareFetch): watched on its
 * partitions, where appends check it, and on its share partitions, where released records and expired locks check
 * it. Records are acquired only when it completes, once.
 */
public final class DelayedShareFetch extends DelayedOperation {

    private final ShareFetchWork work;
    private final CompletableFuture<Struct> answer;
    private final DiskReads disk;
    /** A count of its MinBytes is queued on the disk-io thread: checks meanwhile queue no other. */
    private final AtomicBoolean countQueued = new AtomicBoolean();

    DelayedShareFetch(long maxWaitMs, ShareFetchWork work, CompletableFuture<Struct> answer, DiskReads disk) {
        super(maxWaitMs);
        this.work = work;
        this.answer = answer;
        this.disk = disk;
    }

    /**
     * Checked wherever the purgatory is told of new records (an append's or a follower fetch's event loop, a lock
     * expiry's timer): a count of MinBytes that must read the log goes to the disk-io thread, which completes the
     * fetch, and so reads its records, if there are enough.
     */
    @Override
    public boolean tryComplete() {
        return switch (work.readiness(disk.here())) {
            case ANSWER -> forceComplete();
            case WAIT -> false;
            case COUNT_ON_DISK -> {
                if (countQueued.compareAndSet(false, true)) {
                    disk.execute(() -> {
                        countQueued.set(false);
                        if (!isCompleted() && work.readiness(true) == ShareFetchWork.Readiness.ANSWER) {
                            forceComplete();
                        }
                    });
                }
                yield false;
            }
        };
    }

    /**
     * Completed wherever it was checked or timed out (an event loop, the purgatory's timer): the records are read,
     * and the answer made, on the disk-io thread.
     */
    @Override
    protected void onComplete() {
        disk.complete(answer, work::respond);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory; the answer carries whatever could be acquired by then, possibly nothing.
    }
}
