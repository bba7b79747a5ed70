package io.minibroker.broker.share;

import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;

import java.util.concurrent.CompletableFuture;

/**
 * A ShareFetch waiting for records it can acquire, or {@code MaxWaitMs} (Kafka's DelayedShareFetch): watched on its
 * partitions, where appends check it, and on its share partitions, where released records and expired locks check
 * it. Records are acquired only when it completes, once.
 *
 * <p>As a parked Fetch ({@code fetch/DelayedFetch}), it is checked and completed on whichever thread tells the
 * purgatory (an append's or a follower fetch's event loop, an acknowledgement's, a lock expiry's or its own timeout's
 * purgatory timer, the purgatory's close, the event loop of the request whose share partition's load woke it), and
 * reads the log there: page-cache reads, never the disk-io thread's
 * queue of fsyncs and admin work (docs/architecture.md, "Where log reads run").
 */
public final class DelayedShareFetch extends DelayedOperation {

    private final ShareFetchWork work;
    private final CompletableFuture<Struct> answer;

    DelayedShareFetch(long maxWaitMs, ShareFetchWork work, CompletableFuture<Struct> answer) {
        super(maxWaitMs);
        this.work = work;
        this.answer = answer;
    }

    @Override
    public boolean tryComplete() {
        return work.canAnswer() && forceComplete();
    }

    @Override
    protected void onComplete() {
        try {
            answer.complete(work.respond());
        } catch (RuntimeException e) { // never leave the answer pending: its connection would hold every later response
            answer.completeExceptionally(e);
        }
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory; the answer carries whatever could be acquired by then, possibly nothing.
    }
}
