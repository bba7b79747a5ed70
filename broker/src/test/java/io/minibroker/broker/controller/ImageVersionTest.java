package io.minibroker.broker.controller;

import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker's metadata fetch parked at the controller: answered by the next change to the image, at once when the
 * broker's version is not the current one, by its wait on the (manual) clock, and by the controller's close. And a
 * CreateTopics waiting for the new topic's live replicas to apply the version that has it.
 */
class ImageVersionTest {

    private final ManualClock clock = new ManualClock();
    private final ImageVersion version = new ImageVersion(clock);

    @AfterEach
    void close() throws InterruptedException {
        version.close();
    }

    @Test
    void aFetchAtTheCurrentVersionWaitsForTheNextChange() {
        CompletableFuture<Long> parked = version.awaitChange(0, 500);
        assertThat(parked).isNotDone();

        version.changed();

        assertThat(parked).isCompletedWithValue(1L);
        assertThat(version.purgatory().numDelayed()).isZero();
    }

    @Test
    void aFetchFromAnyOtherVersionIsAnsweredAtOnce() {
        version.changed();
        version.changed();

        assertThat(version.awaitChange(1, 500)).isCompletedWithValue(2L);
        assertThat(version.awaitChange(-1, 500)).isCompletedWithValue(2L); // a broker that has no version yet
        assertThat(version.awaitChange(7, 500)).isCompletedWithValue(2L); // one that followed an earlier controller
    }

    @Test
    void aChangeAnswersOnlyTheFetchesWaitingAtTheVersionItReplaced() {
        CompletableFuture<Long> atZero = version.awaitChange(0, 500);
        version.changed();
        CompletableFuture<Long> atOne = version.awaitChange(1, 500);

        assertThat(atZero).isCompletedWithValue(1L);
        assertThat(atOne).isNotDone();
        version.changed();
        assertThat(atOne).isCompletedWithValue(2L);
    }

    @Test
    void aFetchWithoutAChangeIsAnsweredWhenItsWaitRunsOut() {
        CompletableFuture<Long> parked = version.awaitChange(0, 500);

        clock.advance(499);
        assertThat(parked).isNotDone();
        clock.advance(1);

        assertThat(parked).isCompletedWithValue(0L); // unchanged: the broker asks again
        assertThat(version.purgatory().expirations()).isEqualTo(1);
    }

    @Test
    void closingAnswersTheParkedFetchesWithoutWaitingForTheirTimeout() throws InterruptedException {
        CompletableFuture<Long> first = version.awaitChange(0, 500);
        CompletableFuture<Long> second = version.awaitChange(0, 500);

        version.close();

        assertThat(first).isCompletedWithValue(0L);
        assertThat(second).isCompletedWithValue(0L);
        assertThat(version.awaitChange(0, 500)).isCompletedWithValue(0L); // one that arrives after close
    }

    @Test
    void aCreateTopicsWaitsUntilEveryLiveReplicaHasAppliedTheVersion() {
        version.changed(); // the topic is created: version 1
        CompletableFuture<Void> answered = version.awaitApplied(1, List.of(0, 1, 2), id -> true, 500);

        version.appliedBy(0, 1);
        version.appliedBy(1, 0); // a fetch from before the change
        version.appliedBy(2, 1);
        assertThat(answered).isNotDone();
        version.appliedBy(1, 1);

        assertThat(answered).isCompleted();
    }

    @Test
    void aReplicaThatStopsBeingLiveIsWaitedForNoMore() {
        Set<Integer> live = ConcurrentHashMap.newKeySet();
        live.addAll(List.of(0, 1, 2));
        version.changed();
        CompletableFuture<Void> answered = version.awaitApplied(1, List.of(0, 1, 2), live::contains, 500);
        version.appliedBy(0, 1);
        version.appliedBy(1, 1);
        assertThat(answered).isNotDone();

        live.remove(2);
        version.changed(); // as BrokerMembership tells of a broker fenced

        assertThat(answered).isCompleted();
    }

    @Test
    void aCreateTopicsIsAnsweredAtItsWaitWhetherOrNotTheReplicasAppliedIt() throws InterruptedException {
        version.changed();
        CompletableFuture<Void> timedOut = version.awaitApplied(1, List.of(0), id -> true, 500);
        clock.advance(500);
        assertThat(timedOut).isCompleted();

        CompletableFuture<Void> closed = version.awaitApplied(1, List.of(0), id -> true, 500);
        version.close();
        assertThat(closed).isCompleted();
    }
}
