package io.minibroker.broker.share;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What DeleteGroups asks of the delivery side before a share group's records go (Kafka's GroupCoordinatorService
 * deleting a share group through its Persister's deleteState): forget the state of the group's share partitions,
 * here and at the share coordinators. A failure carries the coordinator's error in a
 * {@link io.minibroker.broker.log.LogException}; the group then stays, as in Kafka.
 */
public interface ShareStateDeletion {

    /** For a coordinator with no delivery side (tests of the membership side alone): there is no state to delete. */
    ShareStateDeletion NONE = (groupId, partitions) -> CompletableFuture.completedFuture(null);

    /**
     * Deletes the state of {@code groupId}'s share partitions: those given (by topic id, the group's record of
     * them) and any other of the group's this node holds; completes once every deletion counts.
     */
    CompletionStage<Void> deleteState(String groupId, Map<UUID, Set<Integer>> partitions);
}
