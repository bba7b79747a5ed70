package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.share.ShareGroupMembership;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * DeleteGroups of a share group at the coordinator: its record 15's topics move to deleting, and then the
 * share-partition state of the partitions it listed is deleted (every partition of a topic already deleting); a failed deletion is answered with the share coordinator's error and the group stays, as Kafka's
 * GroupCoordinatorService keeps a group whose DeleteShareGroupState failed; once it succeeds the group goes.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareGroupDeletionTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private GroupCoordinator coordinator;

    @BeforeEach
    void start() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1",
                "offsets.topic.replication.factor", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        topics.create("queue", 3, 1, Map.of(), false);
        coordinator = new GroupCoordinator(config, topics, BrokerClock.system());
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    @Test
    void aFailedStateDeletionKeepsTheGroupWithTheCoordinatorsError() throws Exception {
        UUID queue = topics.get("queue").orElseThrow().id();
        ShareGroupMembership membership = coordinator.shareGroupMembership();
        assertThat(membership.alterOffsets("g", Map.of(queue, Set.of(0, 2)),
                stateEpoch -> CompletableFuture.completedFuture(null)).toCompletableFuture().get().error())
                .isEqualTo(Errors.NONE);
        List<Map<UUID, Set<Integer>>> asked = new ArrayList<>();

        List<Map<UUID, Set<Integer>>> initializedWhenAsked = new ArrayList<>();
        coordinator.deleteShareStateWith((groupId, partitions) -> {
            asked.add(partitions);
            initializedWhenAsked.add(membership.statePartitions(groupId));
            return CompletableFuture.failedFuture(new LogException(Errors.COORDINATOR_NOT_AVAILABLE, "no coordinator"));
        });
        assertThat(coordinator.delete("g").get()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(coordinator.shareGroup("g").state()).isEqualTo(ShareGroup.State.EMPTY);

        coordinator.deleteShareStateWith((groupId, partitions) -> {
            asked.add(partitions);
            return CompletableFuture.failedFuture(new IllegalStateException("not a log error"));
        });
        assertThat(coordinator.delete("g").get()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        assertThat(coordinator.shareGroup("g").state()).isEqualTo(ShareGroup.State.EMPTY);

        coordinator.deleteShareStateWith((groupId, partitions) -> {
            asked.add(partitions);
            return CompletableFuture.completedFuture(null);
        });
        assertThat(coordinator.delete("g").get()).isEqualTo(Errors.NONE);
        assertThat(coordinator.shareGroup("g")).as("deleted").isNull();
        // The first deletion moved the topic to deleting (record 15 written before the share coordinator is asked):
        // nothing is initialized any more, and the later ones ask for every partition of it, as Kafka's do.
        assertThat(initializedWhenAsked).containsExactly(Map.of());
        assertThat(asked).containsExactly(Map.of(queue, Set.of(0, 2)), Map.of(queue, Set.of(0, 1, 2)),
                Map.of(queue, Set.of(0, 1, 2)));
    }
}
