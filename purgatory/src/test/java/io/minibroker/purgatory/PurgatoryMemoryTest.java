package io.minibroker.purgatory;

import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

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

    /**
     * The operation keeps its places in fields of its own (and, past four keys, in arrays); a completed one that
     * its caller still holds must have forgotten the chunks, or it would pin them and every chunk linked after.
     */
    @Test
    void aCompletedOperationStillHeldDoesNotPinTheChunksOfItsLists() {
        ReferenceQueue<WatchChunk> chunks = new ReferenceQueue<>();
        TestOperation op = new TestOperation(1_000);
        List<WeakReference<WatchChunk>> refs = new ArrayList<>();
        ConcurrentHashMap<Object, WatcherList> shard = new ConcurrentHashMap<>();
        for (int k = 0; k < 6; k++) { // four places inline, two in the arrays
            WatcherList list = new WatcherList("k" + k, shard);
            assertThat(list.add(op)).isTrue();
            refs.add(new WeakReference<>(list.head(), chunks));
        }
        op.publishPlaces();
        op.forceComplete();

        for (WeakReference<WatchChunk> ref : refs) {
            assertCollected(chunks, ref); // the lists are gone; only the operation could hold their chunks
        }
        assertThat(op.places()).isEqualTo(6);
        Reference.reachabilityFence(op);
    }

    @Test
    void anOperationIsWatchedOnce() {
        TestOperation op = new TestOperation(1_000);
        purgatory.tryCompleteElseWatch(op, List.of("a"));

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> purgatory.tryCompleteElseWatch(op, List.of("b")))
                .isInstanceOf(IllegalStateException.class);
        op.forceComplete();
        assertThat(purgatory.watched()).isZero();
    }

    private WeakReference<TestOperation> watchOnThreeKeys() {
        TestOperation op = new TestOperation(1_000);
        purgatory.tryCompleteElseWatch(op, List.of("a", "b", "c"));
        return new WeakReference<>(op, collected);
    }

    /** Asks for collections until the reference is enqueued, waiting for that event after each (not a sleep). */
    private void assertCollected(WeakReference<?> ref) {
        assertCollected(collected, ref);
    }

    private static void assertCollected(ReferenceQueue<?> queue, WeakReference<?> ref) {
        boolean enqueued = ref.refersTo(null);
        for (int i = 0; i < 50 && !enqueued; i++) {
            System.gc();
            try {
                enqueued = queue.remove(10) == ref || ref.refersTo(null);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        assertThat(ref.get()).as("collected").isNull();
    }
}
