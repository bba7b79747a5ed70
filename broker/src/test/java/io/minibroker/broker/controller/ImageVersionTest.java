package io.minibroker.broker.controller;

import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A broker's metadata fetch parked at the controller: answered by the next change to the image, at once when the
 * broker's version is not the current one, by its wait on the (manual) clock, and by the controller's close.
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
}
