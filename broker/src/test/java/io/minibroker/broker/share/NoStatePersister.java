package io.minibroker.broker.share;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A share coordinator with no state for anyone, that answers at once, counts the states it is told and forgets them.
 * A test overrides what it needs of it.
 */
class NoStatePersister implements Persister {

    /** How many states were written. */
    final AtomicInteger writes = new AtomicInteger();
    /** The last state written, or null. */
    volatile ShareStateSnapshot lastWritten;

    @Override
    public CompletionStage<State> read(SharePartitionKey key, int leaderEpoch) {
        return CompletableFuture.completedFuture(new State(null, 0));
    }

    @Override
    public CompletionStage<Void> write(SharePartitionKey key, ShareStateSnapshot snapshot, int leaderEpoch,
                                       int stateEpoch) {
        writes.incrementAndGet();
        lastWritten = snapshot;
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Void> initialize(String groupId, Map<UUID, Set<Integer>> partitions, int stateEpoch,
                                            long startOffset) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletionStage<Summary> summary(SharePartitionKey key) {
        return CompletableFuture.completedFuture(new Summary(-1, 0, -1));
    }

    @Override
    public CompletionStage<Void> delete(SharePartitionKey key) {
        return CompletableFuture.completedFuture(null);
    }
}
