package io.minibroker.broker.transaction;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Backoffs on the broker's clock, as Kafka's leader waits {@code add.partitions.to.txn.retry.backoff.ms} on its
 * scheduler: each wait is a purgatory timeout that nothing completes early, so a test's {@code ManualClock} moves it
 * as it moves every other timeout. One per broker (its purgatory has one reaper thread), shared by the transaction
 * coordinator's marker retries and the produce check's AddPartitionsToTxn retries, and closed by the broker with its
 * other purgatories, before the coordinator: a wait still running then ends at once, so that a waiting produce is
 * asked again while the coordinator still answers. A wait asked for after that would end at once too: a retry loop
 * checks {@link #isClosed()} rather than spin through it.
 */
public final class BackoffTimer implements AutoCloseable {

    /**
     * The one key every wait is watched on. The purgatory wants a key, but nothing ever checks one here: a key per
     * wait would cost a watcher list and a map entry each, left for the purge to drop once the wait ends, where one
     * shared list only has its emptied slots swept.
     */
    private static final List<Object> NO_EVENT = List.of(new Object());

    private final Purgatory<Backoff> purgatory;

    public BackoffTimer(BrokerClock clock) {
        purgatory = Purgatory.builder("TransactionRetryBackoff").clock(clock.purgatoryClock()).build();
    }

    /** Completes, on the thread that drives the clock, once {@code delayMs} have passed on the broker's clock. */
    CompletableFuture<Void> after(long delayMs) {
        Backoff backoff = new Backoff(delayMs);
        purgatory.tryCompleteElseWatch(backoff, NO_EVENT);
        return backoff.done;
    }

    /** Whether the broker has closed it: no wait asked for from now on would pass any time. */
    boolean isClosed() {
        return purgatory.isClosed();
    }

    @Override
    public void close() throws InterruptedException {
        // The purgatory marks itself closed before it ends the waits, so a retry they run sees it closed.
        purgatory.close();
    }

    /** One wait: only its timeout ends it. */
    static final class Backoff extends DelayedOperation {
        private final CompletableFuture<Void> done = new CompletableFuture<>();

        Backoff(long delayMs) {
            super(delayMs);
        }

        @Override
        public boolean tryComplete() {
            return false;
        }

        @Override
        protected void onComplete() {
            done.complete(null);
        }

        @Override
        protected void onExpiration() {
            // onComplete has answered already.
        }
    }
}
