package io.minibroker.broker.controller;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.config.Endpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The controller's election thread: gone once closed, whatever its next rebalance is scheduled for. */
class LeaderElectionsTest {

    @TempDir
    Path dir;

    @Test
    void closeEndsTheThreadThoughARebalanceIsDueLater() throws Exception {
        BrokerMembership membership = new BrokerMembership(9_000, System::currentTimeMillis, () -> 0,
                id -> Long.MAX_VALUE, () -> { }); // whatever a broker reports, its fetches vouch for
        long epoch = membership.register(0, UUID.randomUUID(), List.of(new Endpoint("PLAINTEXT", "localhost", 9092)), null)
                .epoch();
        membership.heartbeat(0, epoch, 0, false, false);
        LeaderElections elections = new LeaderElections(membership,
                TopicAssignments.open(membership, dir, () -> { }), 9_000, 300_000, BrokerClock.system());

        assertThat(elections.awaitClosed()).as("a rebalance due later must not keep the thread alive").isTrue();
    }
}
