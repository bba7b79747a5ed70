package io.minibroker.broker.transaction;

import io.minibroker.protocol.error.Errors;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Which partitions of {@code __transaction_state} this node coordinates the ids of, as Kafka's
 * TransactionStateManager tracks its loadingPartitions and its cache's partitions: one it leads is loading until its
 * replay ends, then loaded; one it does not lead is in neither. Kept apart from the ids' states so that the one rule
 * every request starts with (NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS or go on) and the leader epoch the
 * markers carry are read in one place, whatever the request.
 *
 * <p>Threading: touched only on the coordinator's thread, like the ids' states.
 */
final class TransactionPartitions {

    private final TransactionStateLog stateLog;
    private final Set<Integer> loading = new HashSet<>();
    private final Set<Integer> loaded = new HashSet<>();
    /** The leader epoch at which this node leads each partition it loads (a cluster's): its markers' epoch. */
    private final Map<Integer, Integer> coordinatorEpochs = new HashMap<>();
    /** A single node leads every partition, including those of a topic created while it runs. */
    private boolean singleNode;

    TransactionPartitions(TransactionStateLog stateLog) {
        this.stateLog = stateLog;
    }

    /** The partitions of {@code __transaction_state}, 0 while it does not exist. */
    int count() {
        return stateLog.partitionCount();
    }

    /** The partition holding the id's state; the topic must exist. */
    int partitionOf(String transactionalId) {
        return TransactionCoordinator.partitionFor(transactionalId, count());
    }

    /** A single node's start: it leads every partition, each loading until its replay. Returns their count. */
    int loadingAll() {
        singleNode = true;
        int partitions = count();
        for (int partition = 0; partition < partitions; partition++) {
            loading.add(partition);
        }
        return partitions;
    }

    /** A cluster's node now leads the partition at this leader epoch: it loads it. */
    void loading(int partition, int leaderEpoch) {
        loading.add(partition);
        coordinatorEpochs.put(partition, leaderEpoch);
    }

    /** Whether the load of this epoch is still to run (not resigned, nor led again, meanwhile). */
    boolean stillLoading(int partition, int leaderEpoch) {
        return loading.contains(partition) && coordinatorEpochs.get(partition) == leaderEpoch;
    }

    /** The partition's replay ended, well or not: it is no longer loading. */
    void loadEnded(int partition) {
        loading.remove(partition);
    }

    /** The partition's replay succeeded: its ids are coordinated here. */
    void loaded(int partition) {
        loaded.add(partition);
    }

    /** No longer led (or led again, to be loaded anew): its ids are not coordinated here. */
    void unload(int partition) {
        loading.remove(partition);
        loaded.remove(partition);
        coordinatorEpochs.remove(partition);
    }

    /** Whether the id's state belongs to the partition (every id does while the topic does not exist). */
    boolean holds(int partition, String transactionalId) {
        int partitions = count();
        return partitions == 0 || TransactionCoordinator.partitionFor(transactionalId, partitions) == partition;
    }

    /** Whether some partition is still loading (ListTransactions cannot list all of this node's ids yet). */
    boolean anyLoading() {
        return !loading.isEmpty();
    }

    /** NONE when this node coordinates the id now, else the error Kafka answers. */
    Errors error(String transactionalId) {
        int partitions = count();
        if (partitions == 0) {
            return Errors.NOT_COORDINATOR;
        }
        int partition = TransactionCoordinator.partitionFor(transactionalId, partitions);
        if (loading.contains(partition)) {
            return Errors.COORDINATOR_LOAD_IN_PROGRESS;
        }
        return loaded.contains(partition) ? Errors.NONE : Errors.NOT_COORDINATOR;
    }

    /**
     * On a single node, {@code __transaction_state} created while it runs (the first FindCoordinator of a
     * transactional id has it created): its partitions are empty, so loaded at once.
     */
    void adoptNew() {
        int partitions = count();
        if (singleNode && loaded.isEmpty() && loading.isEmpty()) {
            for (int p = 0; p < partitions; p++) {
                loaded.add(p);
            }
        }
    }

    /** The coordinator's epoch in its markers: the leader epoch of the id's partition, always 0 on a single node. */
    int coordinatorEpoch(String transactionalId) {
        int partitions = count();
        return partitions == 0 ? 0
                : coordinatorEpochs.getOrDefault(TransactionCoordinator.partitionFor(transactionalId, partitions), 0);
    }
}
