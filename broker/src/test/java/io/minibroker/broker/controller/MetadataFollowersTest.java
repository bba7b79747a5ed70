package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.quorum.QuorumReport;
import io.minibroker.broker.quorum.ReplicaKey;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** DescribeQuorum's observers, as Kafka's metadata leader keeps them: a broker that stops fetching is forgotten. */
class MetadataFollowersTest {

    private static final List<Endpoint> LISTENERS = List.of(new Endpoint("CONTROLLER", "localhost", 9093));

    private final AtomicLong now = new AtomicLong(1_000_000);
    private final MetadataFollowers followers = new MetadataFollowers(now::get);

    @Test
    void anObserverWithoutAFetchForFiveMinutesIsDropped() {
        followers.fetched(1, ReplicaKey.NO_DIRECTORY, 4, 4);
        followers.fetched(2, ReplicaKey.NO_DIRECTORY, 4, 4);

        now.addAndGet(MetadataFollowers.OBSERVER_SESSION_TIMEOUT_MS - 1);
        followers.fetched(2, ReplicaKey.NO_DIRECTORY, 4, 4);
        assertThat(observerIds()).as("node 1 fetched just under five minutes ago").containsExactly(1, 2);

        now.addAndGet(1);
        assertThat(observerIds()).as("node 1 stopped fetching five minutes ago").containsExactly(2);

        followers.fetched(1, ReplicaKey.NO_DIRECTORY, -1, 4);
        assertThat(observerIds()).as("back after a restart").containsExactly(1, 2);
    }

    private List<Integer> observerIds() {
        return followers.report(new ReplicaKey(0, ReplicaKey.NO_DIRECTORY), 4, LISTENERS).observers().stream().map(QuorumReport.Replica::replicaId).toList();
    }
}
