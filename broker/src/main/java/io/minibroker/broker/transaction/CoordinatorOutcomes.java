package io.minibroker.broker.transaction;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

/**
 * How the transaction coordinator takes the outcome of a step it started (a state written, markers appended) back on
 * its own thread, where the step started: an outcome known already (a single node's write, this node's own
 * partitions' markers) in the same task, any other in a task of its own queued there. Taking it at once is what
 * lets a single node answer EndTxn with the transaction complete: no request queued meanwhile finds the id still
 * pending and is told CONCURRENT_TRANSACTIONS (which a leader retries only after
 * {@code add.partitions.to.txn.retry.backoff.ms}).
 */
final class CoordinatorOutcomes {

    private CoordinatorOutcomes() {
    }

    /**
     * {@code then} applied to {@code outcome} on the coordinator's thread: in the calling task if the outcome is
     * known already (the caller being on that thread), else once it is, in a task of its own there.
     */
    static <T, R> CompletableFuture<R> handle(CompletableFuture<T> outcome,
                                              BiFunction<? super T, Throwable, ? extends R> then,
                                              Executor coordinatorThread) {
        return outcome.isDone() ? outcome.handle(then) : outcome.handleAsync(then, coordinatorThread);
    }
}
