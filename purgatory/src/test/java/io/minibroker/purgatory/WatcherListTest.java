package io.minibroker.purgatory;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** The chunked watcher list on its own: growth, the amortized sweep, purge, detach and lock-free readers. */
class WatcherListTest {

    private final ConcurrentHashMap<Object, WatcherList> shard = new ConcurrentHashMap<>();
    private final WatcherList list = new WatcherList("key", shard);

    WatcherListTest() {
        shard.put("key", list);
    }

    @Test
    void chunksDoubleFromFourUpToSixtyFour() {
        watch(4 + 8 + 16 + 32 + 64 + 64 + 1);

        assertThat(capacities()).containsExactly(4, 8, 16, 32, 64, 64, 64);
    }

    @Test
    void aReleasedSlotHoldsNoOperationAndASecondReleaseIsHarmless() {
        TestOperation op = new TestOperation(100);
        TestOperation other = new TestOperation(100);
        assertThat(list.add(op)).isTrue();
        assertThat(list.add(other)).isTrue();
        assertThat(list.countWatched()).isEqualTo(2);

        op.releasePlaces();
        assertThat(list.head().get(0)).isNull();
        op.releasePlaces();
        assertThat(list.head().get(0)).as("a second release of the same slot").isNull();
        assertThat(list.head().get(1)).as("the neighbour's slot").isSameAs(other);
        assertThat(list.countWatched()).isEqualTo(1);
    }

    @Test
    void appendsSweepEmptiedChunksSoAListOfFewWaitersStaysSmall() {
        // A steady stream where each operation completes before the next few arrive: at most a handful wait.
        List<Watch> watches = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            watches.addAll(watch(1));
            if (i >= 10) {
                watches.get(i - 10).release();
            }
        }

        assertThat(capacities().size()).as("chunks kept: those holding the last ten, plus unswept ones")
                .isLessThanOrEqualTo(6);
        assertThat(liveOperations()).containsExactlyElementsOf(
                watches.subList(100_000 - 10, 100_000).stream().map(Watch::op).toList());
    }

    @Test
    void theAppendThatNeedsAThirdChunkSweepsTheEmptyOneAndKeepsTheOneWithAWaiter() {
        List<Watch> watches = watch(4 + 8);
        for (int i = 0; i < 4 + 8; i++) {
            if (i != 5) { // one waiter left, in the second chunk
                watches.get(i).release();
            }
        }
        assertThat(capacities()).as("no sweep before a new chunk is needed").containsExactly(4, 8);

        TestOperation next = new TestOperation(100);
        list.add(next);

        assertThat(capacities()).containsExactly(8, 16);
        assertThat(liveOperations()).containsExactly(watches.get(5).op(), next);
    }

    @Test
    void purgeDropsEmptiedChunksAtTheHeadAndStopsAtTheFirstWaiter() {
        List<Watch> watches = watch(4 + 8 + 16);
        for (int i = 0; i < 4 + 8 + 1; i++) {
            watches.get(i).release();
        }

        assertThat(list.purge()).isFalse();
        assertThat(capacities()).as("the first two chunks were empty").containsExactly(16);
        assertThat(liveOperations()).hasSize(15);
    }

    @Test
    void purgeSweepsAListLeftIdleSinceThePreviousPurgeButOnlyTheHeadOfABusyOne() {
        List<Watch> watches = watch(4 + 8 + 16);
        for (int i = 4; i < 4 + 8; i++) { // the second chunk empties; the first keeps its waiters
            watches.get(i).release();
        }

        assertThat(list.purge()).isFalse();
        assertThat(capacities()).as("appended to since the last purge: only the head is looked at")
                .containsExactly(4, 8, 16);

        assertThat(list.purge()).isFalse();
        assertThat(capacities()).as("idle since: swept whole").containsExactly(4, 16);
    }

    @Test
    void purgeDetachesAListWhoseFirstWatcherHasNotAppendedYet() {
        assertThat(list.purge()).isTrue();
        assertThat(shard).doesNotContainKey("key");
        assertThat(list.add(new TestOperation(100))).isFalse();
    }

    @Test
    void purgeDetachesAWhollyEmptyListAndAddsToItFailAfterwards() {
        TestOperation op = new TestOperation(100);
        list.add(op);
        assertThat(list.purge()).isFalse();

        op.releasePlaces();

        assertThat(list.purge()).isTrue();
        assertThat(shard).doesNotContainKey("key");
        assertThat(list.add(new TestOperation(100))).as("a watcher must fetch a fresh list").isFalse();
    }

    @Test
    void detachAllReturnsTheWaitersAndEmptiesTheirSlots() {
        List<TestOperation> ops = watch(6).stream().map(Watch::op).toList();
        ops.get(0).forceComplete(); // completed, but its slot here was never released: not returned
        WatchChunk first = list.head();

        List<DelayedOperation> waiting = list.detachAll();

        assertThat(waiting).containsExactlyElementsOf(ops.subList(1, 6));
        assertThat(first.countHeld()).isZero();
        assertThat(shard).doesNotContainKey("key");
        assertThat(list.head()).as("the chunks are forgotten; the waiters handed back hold their slots").isNull();
    }

    @Test
    void aReaderStandingOnASweptChunkStillReachesTheRestOfTheList() {
        List<Watch> watches = watch(4 + 8);
        WatchChunk first = list.head();
        for (int i = 0; i < 4; i++) {
            watches.get(i).release();
        }
        list.purge();
        assertThat(list.head()).isNotSameAs(first);

        assertThat(first.next).as("the unlinked chunk still leads on").isSameAs(list.head());
    }

    /** Appends {@code count} fresh operations. */
    private List<Watch> watch(int count) {
        List<Watch> watches = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            TestOperation op = new TestOperation(100);
            assertThat(list.add(op)).isTrue();
            watches.add(new Watch(op));
        }
        return watches;
    }

    private List<Integer> capacities() {
        List<Integer> capacities = new ArrayList<>();
        for (WatchChunk chunk = list.head(); chunk != null; chunk = chunk.next) {
            capacities.add(chunk.capacity());
        }
        return capacities;
    }

    private List<DelayedOperation> liveOperations() {
        List<DelayedOperation> live = new ArrayList<>();
        for (WatchChunk chunk = list.head(); chunk != null; chunk = chunk.next) {
            for (int i = 0; i < chunk.capacity(); i++) {
                if (chunk.get(i) != null) {
                    live.add(chunk.get(i));
                }
            }
        }
        return live;
    }

    /** An operation watched in the list, whose place its completion would release. */
    private record Watch(TestOperation op) {
        void release() {
            op.releasePlaces();
        }
    }
}
