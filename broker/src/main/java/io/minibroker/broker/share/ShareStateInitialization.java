package io.minibroker.broker.share;

import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the group coordinator asks of the delivery side before it assigns a share partition to a member (Kafka's
 * GroupCoordinatorService.persisterInitialize after a ShareGroupHeartbeat): have the share coordinators initialize
 * the partitions' state (InitializeShareGroupState, start offset -1, the group's epoch as state epoch). A failure
 * carries the coordinator's error in a {@link io.minibroker.broker.log.LogException}.
 */
public interface ShareStateInitialization {

    /** For a coordinator with no delivery side (tests of the membership side alone): initialized at once. */
    ShareStateInitialization NONE = (groupId, partitions, stateEpoch) -> CompletableFuture.completedFuture(null);

    /** Initializes the state of {@code groupId}'s share partitions given; completes once every one counts. */
    CompletionStage<Void> initializeState(String groupId, Map<UUID, Set<Integer>> partitions, int stateEpoch);
}
