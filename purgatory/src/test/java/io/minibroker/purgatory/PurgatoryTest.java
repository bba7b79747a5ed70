package io.minibroker.purgatory;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Deterministic scenarios on a manual clock: no sleeps, no reaper thread. */
class PurgatoryTest {

    private final ManualClock clock = new ManualClock();
    private final Purgatory<TestOperation> purgatory = Purgatory.builder("Produce").clock(clock).build();

    @AfterEach
    void close() throws InterruptedException {
        purgatory.close();
    }

    @Test
    void anOperationThatCanCompleteAtOnceIsNeitherWatchedNorTimed() {
        TestOperation op = new TestOperation(100);
        op.satisfy();

        assertThat(purgatory.tryCompleteElseWatch(op, List.of("a", "b"))).isTrue();

        assertThat(op.completions).hasValue(1);
        assertThat(op.tryCompletes).hasValue(1);
        assertThat(purgatory.watched()).isZero();
        assertThat(purgatory.numDelayed()).isZero();
    }

    @Test
    void aWatchedOperationCompletesOnTheEventForAnyOfItsKeys() {
        TestOperation op = new TestOperation(100);
        assertThat(purgatory.tryCompleteElseWatch(op, List.of("a", "b", "c"))).isFalse();
        assertThat(purgatory.watched()).isEqualTo(3);
        assertThat(purgatory.numDelayed()).isEqualTo(1);

        assertThat(purgatory.checkAndComplete("b")).as("not satisfied yet").isZero();
        op.satisfy();
        assertThat(purgatory.checkAndComplete("b")).isEqualTo(1);

        assertThat(op.completions).hasValue(1);
        assertThat(op.expirations).hasValue(0);
        assertThat(purgatory.numDelayed()).as("left the timer at once").isZero();
        assertThat(purgatory.completions()).isEqualTo(1);
        clock.advance(1_000);
        assertThat(op.completions).as("no second completion by expiry").hasValue(1);
        assertThat(purgatory.expirations()).isZero();
    }

    /**
     * The walk's two passes over a chunk (load every operation's state, then try them) must still try every
     * waiting operation exactly once per check, skip completed ones and chunks with none waiting, and complete
     * exactly the satisfied ones, across chunks of every size. Random subsets, a fixed seed per round.
     */
    @Test
    void aCheckTriesEveryWaitingOperationOnceAndCompletesExactlyTheSatisfiedOnes() {
        java.util.SplittableRandom random = new java.util.SplittableRandom(21);
        for (int round = 0; round < 50; round++) {
            String key = "walk-" + round;
            int count = 1 + random.nextInt(400); // up to seven chunks: 4, 8, 16, 32, 64, 64...
            List<TestOperation> ops = new java.util.ArrayList<>();
            for (int i = 0; i < count; i++) {
                TestOperation op = new TestOperation(100);
                purgatory.tryCompleteElseWatch(op, List.of(key));
                ops.add(op);
            }
            int expected = 0;
            boolean[] forced = new boolean[count];
            for (int i = 0; i < count; i++) {
                TestOperation op = ops.get(i);
                switch (random.nextInt(4)) {
                    case 0 -> forced[i] = op.forceComplete(); // already gone: not tried again
                    case 1 -> {
                        op.satisfy();
                        expected++;
                    }
                    default -> { // keeps waiting
                    }
                }
            }
            List<Integer> triesBefore = ops.stream().map(op -> op.tryCompletes.get()).toList();

            assertThat(purgatory.checkAndComplete(key)).isEqualTo(expected);

            for (int i = 0; i < count; i++) {
                TestOperation op = ops.get(i);
                int tried = op.tryCompletes.get() - triesBefore.get(i);
                assertThat(tried).as("round %d, operation %d", round, i).isEqualTo(forced[i] ? 0 : 1);
                assertThat(op.completions).hasValue(op.isCompleted() ? 1 : 0);
            }
            ops.forEach(TestOperation::forceComplete);
        }
        assertThat(purgatory.watched()).isZero();
    }

    @Test
    void tryCompleteElseWatchTriesAtMostTwiceWhateverTheNumberOfKeys() {
        TestOperation op = new TestOperation(100);
        List<String> keys = List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8");

        purgatory.tryCompleteElseWatch(op, keys);

        assertThat(op.tryCompletes).hasValue(2);
    }

    @Test
    void anOperationExpiresExactlyAtItsTimeoutAndOnlyThenGetsOnExpiration() {
        TestOperation op = new TestOperation(200);
        purgatory.tryCompleteElseWatch(op, List.of("a"));

        clock.advance(199);
        assertThat(op.completions).hasValue(0);
        clock.advance(1);

        assertThat(op.completions).hasValue(1);
        assertThat(op.expirations).hasValue(1);
        assertThat(purgatory.expirations()).isEqualTo(1);
        assertThat(purgatory.completions()).isZero();
        assertThat(purgatory.numDelayed()).isZero();
    }

    @Test
    void forceCompleteWinsOnceAndTheTimeoutNeverFires() {
        TestOperation op = new TestOperation(50);
        purgatory.tryCompleteElseWatch(op, List.of("a"));

        assertThat(op.forceComplete()).isTrue();
        assertThat(op.forceComplete()).isFalse();
        clock.advance(100);

        assertThat(op.completions).hasValue(1);
        assertThat(op.expirations).hasValue(0);
    }

    /**
     * The look after the watch's fence, made deterministic: an operation completed before it is added (as by a
     * completer that ran between the first try and the timer's link, so its cancel found nothing to unlink) is
     * linked by the add, and only that look takes it out again. PurgatoryConcurrencyTest races the same thing.
     */
    @Test
    void anOperationCompletedBeforeItsTimerLinkIsTakenOutOfTheTimer() {
        TestOperation op = new TestOperation(3_600_000);
        op.forceComplete();

        assertThat(purgatory.tryCompleteElseWatch(op, List.of("k"))).isTrue();

        assertThat(purgatory.numDelayed()).as("completed operation left in the timer").isZero();
        assertThat(purgatory.watched()).isZero();
        assertThat(op.completions).hasValue(1);
    }

    @Test
    void aCompletedOperationLeavesEveryWatcherListAtOnce() {
        TestOperation first = new TestOperation(100);
        TestOperation second = new TestOperation(100);
        purgatory.tryCompleteElseWatch(first, List.of("a", "b"));
        purgatory.tryCompleteElseWatch(second, List.of("a"));
        assertThat(purgatory.watched()).isEqualTo(3);

        first.forceComplete();
        assertThat(purgatory.watched()).as("first left a and b without any check or purge").isEqualTo(1);

        second.satisfy();
        assertThat(purgatory.checkAndComplete("a")).isEqualTo(1);
        assertThat(purgatory.watched()).isZero();

        TestOperation third = new TestOperation(100);
        purgatory.tryCompleteElseWatch(third, List.of("a"));
        assertThat(purgatory.watched()).as("a fresh list replaces the dropped one").isEqualTo(1);
        third.satisfy();
        assertThat(purgatory.checkAndComplete("a")).isEqualTo(1);
    }


    @Test
    void anOperationOnMoreKeysThanOneGroupOfSlotsHoldsLeavesEveryListAtOnce() {
        // Nine keys take three groups of slots, the last one partly filled.
        List<String> keys = List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9");
        TestOperation many = new TestOperation(100);
        TestOperation other = new TestOperation(100);
        purgatory.tryCompleteElseWatch(many, keys);
        purgatory.tryCompleteElseWatch(other, List.of("k9"));
        assertThat(purgatory.watched()).isEqualTo(10);

        many.forceComplete();

        assertThat(purgatory.watched()).as("only other's slot on k9 is left").isEqualTo(1);
        for (String key : keys.subList(0, 8)) {
            assertThat(purgatory.checkAndComplete(key)).isZero();
        }
        other.satisfy();
        assertThat(purgatory.checkAndComplete("k9")).isEqualTo(1);
        assertThat(purgatory.watched()).isZero();
    }
    @Test
    void checkingAKeyNobodyWatchesCompletesNothing() {
        assertThat(purgatory.checkAndComplete("nobody")).isZero();
    }

    @Test
    void cancelForKeyReturnsThePendingOperationsAndTakesThemOutOfTheTimer() {
        TestOperation pending = new TestOperation(100);
        TestOperation done = new TestOperation(100);
        purgatory.tryCompleteElseWatch(pending, List.of("partition-0", "other"));
        purgatory.tryCompleteElseWatch(done, List.of("partition-0"));
        done.forceComplete();

        List<TestOperation> cancelled = purgatory.cancelForKey("partition-0");

        assertThat(cancelled).containsExactly(pending);
        assertThat(purgatory.numDelayed()).isZero();
        clock.advance(1_000);
        assertThat(pending.completions).as("cancelled, not expired: the caller completes it").hasValue(0);
        assertThat(purgatory.cancelForKey("partition-0")).isEmpty();
    }

    @Test
    void purgeRunsOnlyWhenTheEstimateExceedsPendingByTheIntervalAndDropsEmptyLists() throws InterruptedException {
        Purgatory<TestOperation> small = Purgatory.builder("Fetch").clock(clock).purgeInterval(10).build();
        try {
            TestOperation waiting = new TestOperation(1_000);
            small.tryCompleteElseWatch(waiting, List.of("busy"));
            // Ten more watched operations, all completed by force: E = 11, pending = 1, not above the interval.
            for (int i = 0; i < 10; i++) {
                TestOperation op = new TestOperation(1_000);
                small.tryCompleteElseWatch(op, List.of("key-" + i, "busy"));
                op.forceComplete();
            }
            clock.advance(1);
            assertThat(small.purges()).isZero();
            assertThat(small.watched()).as("completed operations left their lists on completion").isEqualTo(1);

            TestOperation twelfth = new TestOperation(1_000);
            small.tryCompleteElseWatch(twelfth, List.of("key-x"));
            twelfth.forceComplete();
            clock.advance(1);
            assertThat(small.purges()).as("E = 12, pending = 1").isEqualTo(1);
            clock.advance(1);
            assertThat(small.purges()).as("E was reset to the pending count").isEqualTo(1);

            waiting.satisfy();
            assertThat(small.checkAndComplete("busy")).as("the waiting operation survived the purge").isEqualTo(1);
            assertThat(small.watched()).isZero();
        } finally {
            small.close();
        }
    }

    @Test
    void closeExpiresEveryWaitingOperationOnceAndLateOnesAtOnce() throws InterruptedException {
        Purgatory<TestOperation> closing = Purgatory.builder("Join").clock(clock).build();
        TestOperation waiting = new TestOperation(10_000);
        TestOperation done = new TestOperation(10_000);
        closing.tryCompleteElseWatch(waiting, List.of("g"));
        closing.tryCompleteElseWatch(done, List.of("g"));
        done.forceComplete();

        closing.close();

        assertThat(waiting.completions).hasValue(1);
        assertThat(waiting.expirations).hasValue(1);
        assertThat(done.completions).hasValue(1);
        assertThat(done.expirations).hasValue(0);

        TestOperation late = new TestOperation(10_000);
        assertThat(closing.tryCompleteElseWatch(late, List.of("g"))).isTrue();
        assertThat(late.expirations).hasValue(1);
        clock.advance(20_000);
        assertThat(waiting.completions).hasValue(1);
    }

    @Test
    void aZeroTimeoutExpiresOnTheCallersThread() {
        TestOperation op = new TestOperation(0);

        assertThat(purgatory.tryCompleteElseWatch(op, List.of("a"))).isTrue();

        assertThat(op.expirations).hasValue(1);
    }

    @Test
    void aZeroTimeoutStillGetsTheTryAfterTheWatchBeforeItExpires() {
        TestOperation op = new TestOperation(0) {
            @Override
            public boolean tryComplete() {
                boolean completed = super.tryComplete();
                satisfy(); // the event lands between the first try and the watch
                return completed;
            }
        };

        assertThat(purgatory.tryCompleteElseWatch(op, List.of("a"))).isTrue();

        assertThat(op.tryCompletes).hasValue(2);
        assertThat(op.completions).hasValue(1);
        assertThat(op.expirations).as("completed by the second try, not expired").hasValue(0);
        assertThat(purgatory.numDelayed()).isZero();
        assertThat(purgatory.watched()).isZero();
    }

    /** A key whose hashCode throws, as a broken caller's might: the call throws, the operation still ends. */
    private static final class ThrowingKey {
        @Override
        public int hashCode() {
            throw new IllegalStateException("broken key");
        }
    }

    @Test
    void anOperationWhoseKeyThrowsStillExpiresAtItsTimeout() {
        TestOperation op = new TestOperation(100);

        assertThatThrownBy(() -> purgatory.tryCompleteElseWatch(op, List.of("a", new ThrowingKey())))
                .isInstanceOf(IllegalStateException.class);
        assertThat(purgatory.numDelayed()).isEqualTo(1);
        clock.advance(100);

        assertThat(op.expirations).hasValue(1);
        assertThat(purgatory.numDelayed()).isZero();
    }

    @Test
    void anOperationWithAZeroTimeoutWhoseKeyThrowsExpiresAtOnce() {
        TestOperation op = new TestOperation(0);

        assertThatThrownBy(() -> purgatory.tryCompleteElseWatch(op, List.of("a", new ThrowingKey())))
                .isInstanceOf(IllegalStateException.class);

        assertThat(op.expirations).as("timed although not watched on every key").hasValue(1);
        assertThat(purgatory.numDelayed()).isZero();
    }

    @Test
    void metersReportThePurgatorysFiguresUnderKafkasTag() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new PurgatoryMeters(purgatory).bindTo(registry);
        TestOperation waiting = new TestOperation(100);
        TestOperation expiring = new TestOperation(10);
        TestOperation completing = new TestOperation(100);
        purgatory.tryCompleteElseWatch(waiting, List.of("a", "b"));
        purgatory.tryCompleteElseWatch(expiring, List.of("a"));
        purgatory.tryCompleteElseWatch(completing, List.of("c"));
        completing.forceComplete();
        clock.advance(10);

        assertThat(registry.get("purgatory.size").tag("delayedOperation", "Produce").gauge().value())
                .isEqualTo(purgatory.watched()).isEqualTo(2);
        assertThat(registry.get("purgatory.delayed.operations").gauge().value()).isEqualTo(1);
        assertThat(registry.get("purgatory.completions").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("purgatory.expirations").functionCounter().count()).isEqualTo(1);
        assertThat(registry.get("purgatory.purges").functionCounter().count()).isZero();
    }

    @Test
    void anOperationNeedsAKey() {
        assertThatThrownBy(() -> purgatory.tryCompleteElseWatch(new TestOperation(1), List.of()))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
