package io.minibroker.purgatory;

import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A completed operation must be collectable at once, before any purge or check of its other keys. */
class PurgatoryMemoryTest {

    private final ManualClock clock = new ManualClock();
    private final Purgatory<TestOperation> purgatory =
            Purgatory.builder("Memory").clock(clock).purgeInterval(Integer.MAX_VALUE).build();
    /** Where the collector puts each watched operation's reference once it has cleared it. */
    private final ReferenceQueue<TestOperation> collected = new ReferenceQueue<>();

    @Test
    void anOperationCompletedByAnEventOnOneKeyIsCollectableThoughWatchedOnOthers() {
        WeakReference<TestOperation> ref = watchOnThreeKeys();
        ref.get().satisfy();
        assertThat(purgatory.checkAndComplete("a")).isEqualTo(1);

        assertCollected(ref);
        assertThat(purgatory.watched()).as("it left b and c too, unchecked and unpurged").isZero();
    }

    @Test
    void aForceCompletedOperationIsCollectable() {
        WeakReference<TestOperation> ref = watchOnThreeKeys();
        ref.get().forceComplete();

        assertCollected(ref);
    }

    @Test
    void anExpiredOperationIsCollectable() {
        WeakReference<TestOperation> ref = watchOnThreeKeys();
        clock.advance(1_000);

        assertCollected(ref);
    }

    @Test
    void aPendingOperationIsNotCollected() {
        WeakReference<TestOperation> ref = watchOnThreeKeys();
        for (int i = 0; i < 3; i++) {
            System.gc();
        }

        assertThat(ref.get()).as("the purgatory holds it while it waits").isNotNull();
    }

    private WeakReference<TestOperation> watchOnThreeKeys() {
        TestOperation op = new TestOperation(1_000);
        purgatory.tryCompleteElseWatch(op, List.of("a", "b", "c"));
        return new WeakReference<>(op, collected);
    }

    /** Asks for collections until the reference is enqueued, waiting for that event after each (not a sleep). */
    private void assertCollected(WeakReference<?> ref) {
        boolean enqueued = false;
        for (int i = 0; i < 50 && !enqueued; i++) {
            System.gc();
            try {
                enqueued = collected.remove(10) == ref;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(ref.get()).as("collected").isNull();
    }
}
