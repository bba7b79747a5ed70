package io.minibroker.broker.replica;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leader takes from an image only the controller's removal of fenced brokers from its ISR, and never the removal
 * of a member it took in more recently than the image can be old.
 */
class LeaderStateTest {

    private static final long IMAGE_MAX_AGE_MS = 1_000;

    @Test
    void readReplicasAreTheInSyncFollowersThatFetchedAndHoldTheOffset() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2, 3, 4), List.of(0, 1, 2, 3), 0);
        leader.onFetch(1, 7, 10, 0, 10, 100); // caught up at 100, holds 0-10
        leader.onFetch(2, 7, 4, 0, 10, 100); // behind: its log ends at 4
        leader.onFetch(4, 7, 10, 0, 10, 100); // caught up, not in the ISR
        // node 3: in the ISR, not fetched in this term

        assertThat(leader.readReplicas(5, 150, id -> "rack-" + id))
                .containsExactly(new ReplicaSelector.ReplicaView(1, "rack-1", 10, 50));
        assertThat(leader.readReplicas(4, 150, id -> null)).extracting(ReplicaSelector.ReplicaView::id)
                .containsExactlyInAnyOrder(1, 2);
        leader.onFetch(1, 7, 10, 6, 10, 200); // its log start moved past 5
        assertThat(leader.readReplicas(5, 250, id -> null)).isEmpty();
    }

    @Test
    void takesTheRemovalOfBrokersThatAreNotLiveInTheImage() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1, 2), 0);

        assertThat(leader.takeFencingShrink(List.of(0, 1), Set.of(0, 1, 2), 10, IMAGE_MAX_AGE_MS))
                .as("node 2 is live: not the controller's removal").isFalse();
        assertThat(leader.takeFencingShrink(List.of(0, 1), Set.of(0, 1), 10, IMAGE_MAX_AGE_MS)).isTrue();
        assertThat(leader.isr()).containsExactly(0, 1);
        assertThat(leader.partitionEpoch()).as("unknown: the image carries none").isEqualTo(-1);
    }

    @Test
    void keepsAMemberItTookInUntilAnImageNewerThanThatConfirmsItsRemoval() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1), 0);
        leader.onFetch(2, 7, 0, 0, 0, 0); // caught up
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);
        leader.changeAnswered(List.of(0, 1, 2), 4, 5_000);

        assertThat(leader.takeFencingShrink(List.of(0, 1), Set.of(0, 1), 5_500, IMAGE_MAX_AGE_MS))
                .as("the image may predate taking node 2 in").isFalse();
        assertThat(leader.isr()).containsExactly(0, 1, 2);
        assertThat(leader.takeFencingShrink(List.of(0, 1), Set.of(0, 1), 6_001, IMAGE_MAX_AGE_MS)).isTrue();
        assertThat(leader.isr()).containsExactly(0, 1);
    }

    @Test
    void takesNothingWhileAChangeOfItsOwnIsPending() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1, 2), 0);
        // both followers lag
        assertThat(leader.wantedIsr(60_000, 1_000, 0, 0, Set.of(0, 1, 2), Set.of())).containsExactly(0);
        assertThat(leader.takeFencingShrink(List.of(0, 1), Set.of(0, 1), 60_000, IMAGE_MAX_AGE_MS)).isFalse();
    }

    @Test
    void asksBackOnlyCaughtUpFollowersThatAreLive() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1), 0);
        leader.onFetch(2, 7, 0, 0, 0, 0); // caught up, then fenced

        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1), Set.of())).as("node 2 is fenced").isNull();
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void leavesOutAFollowerHeldOutEvenWhenItIsCaughtUp() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1, 2), 0);
        leader.onFetch(1, 7, 0, 0, 0, 0);
        leader.onFetch(2, 7, 0, 0, 0, 0);
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of(2))).containsExactlyInAnyOrder(0, 1);
        leader.changeAnswered(List.of(0, 1), 1, 0);
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of(2))).as("stays out").isNull();
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void holdsTheHighWatermarkForAJoinerWhileItsExpansionIsPending() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1), 0);
        leader.onFetch(1, 7, 10, 0, 10, 0);
        leader.onFetch(2, 7, 5, 0, 10, 0); // at the high watermark, behind the leader's log end
        assertThat(leader.leastIsrLogEnd(10)).isEqualTo(10);

        assertThat(leader.wantedIsr(0, 30_000, 5, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(leader.leastIsrLogEnd(10)).as("the controller may already have taken node 2 in").isEqualTo(5);
        leader.changeAnswered(null, -1, 0);
        assertThat(leader.leastIsrLogEnd(10)).as("refused: the committed ISR again").isEqualTo(10);
    }

    @Test
    void holdsTheHighWatermarkForALeaverUntilItsShrinkIsCommitted() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1, 2), 0);
        leader.onFetch(1, 7, 10, 0, 10, 60_000);
        leader.onFetch(2, 7, 5, 0, 10, 0);

        assertThat(leader.wantedIsr(60_000, 30_000, 5, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1);
        assertThat(leader.leastIsrLogEnd(10)).as("node 2 is in the ISR until the controller says").isEqualTo(5);
        leader.changeAnswered(List.of(0, 1), 1, 60_000);
        assertThat(leader.leastIsrLogEnd(10)).isEqualTo(10);
    }

    @Test
    void takesInAFollowerThatReachedTheHighWatermarkAndThisTermsStartHoweverLongItLagged() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1), 0);
        leader.onFetch(1, 7, 20, 0, 20, 60_000);
        leader.onFetch(2, 7, 8, 0, 20, 60_000); // behind the log end since the start, past the high watermark

        assertThat(leader.wantedIsr(60_000, 30_000, 8, 10, Set.of(0, 1, 2), Set.of()))
                .as("node 2 has not reached where this leader's epoch starts").isNull();
        leader.onFetch(2, 7, 12, 0, 20, 60_000);
        assertThat(leader.wantedIsr(60_000, 30_000, 8, 10, Set.of(0, 1, 2), Set.of()))
                .as("as Kafka's isFollowerInSync: no lag condition to join").containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void asksNothingMoreAfterARefusalOnlyMetadataMendsUntilMetadataArrives() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1), 0);
        leader.onFetch(1, 7, 10, 0, 10, 0);
        leader.onFetch(2, 7, 5, 0, 10, 0);
        assertThat(leader.wantedIsr(0, 30_000, 5, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);
        leader.changeAnswered(List.of(0, 1), 3, 0); // committed at partition epoch 3
        assertThat(leader.wantedIsr(0, 30_000, 5, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);

        leader.awaitMetadata(true); // INVALID_UPDATE_VERSION
        assertThat(leader.wantedIsr(0, 30_000, 5, 0, Set.of(0, 1, 2), Set.of())).as("no resend").isNull();
        assertThat(leader.leastIsrLogEnd(10)).as("still the maximal ISR").isEqualTo(5);

        leader.metadataArrived();
        assertThat(leader.partitionEpoch()).as("ours was not the controller's").isEqualTo(-1);
        assertThat(leader.wantedIsr(0, 30_000, 5, 0, Set.of(0, 1, 2), Set.of())).containsExactlyInAnyOrder(0, 1, 2);
    }

    @Test
    void metadataDropsNoChangeThatWasNotRefused() {
        LeaderState leader = new LeaderState(0, List.of(0, 1, 2), List.of(0, 1), 0);
        leader.onFetch(2, 7, 0, 0, 0, 0);
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of())).isNotNull();

        leader.metadataArrived();
        assertThat(leader.wantedIsr(0, 30_000, 0, 0, Set.of(0, 1, 2), Set.of())).as("still in flight").isNull();
    }
}
