package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The classic membership's answers while the group's partition of the offsets topic is still loading here. */
class ClassicGroupLoadingTest {

    @Test
    void aSyncWhileThePartitionLoadsIsSentBackToJoinAsTheClientsExpect() throws Exception {
        CoordinatedPartitions partitions = CoordinatedPartitions.cluster();
        partitions.loading(0, 1);
        ClassicGroupCoordinator coordinator = new ClassicGroupCoordinator(BrokerConfig.of(Map.of()),
                new ClassicGroups(partitions, groupId -> 0), null, BrokerClock.manual(new ManualClock()));
        try {
            short error = coordinator.sync(new SyncRequest("g", 1, "m", null, null, null, Map.of())).get()
                    .getInt16("ErrorCode");

            assertThat(error).as("kafka-clients fail the consumer on COORDINATOR_LOAD_IN_PROGRESS here")
                    .isEqualTo(Errors.REBALANCE_IN_PROGRESS.code());
            assertThat(coordinator.heartbeat("g", 1, "m", null)).as("a heartbeat is answered blindly")
                    .isEqualTo(Errors.NONE);
        } finally {
            coordinator.close();
        }
    }
}
