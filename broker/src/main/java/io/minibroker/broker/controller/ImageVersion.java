package io.minibroker.broker.controller;

import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.Clock;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntPredicate;

/**
 * The version of the image brokers fetch, and where their metadata fetches wait for the next one: Kafka's brokers
 * follow the controller's metadata log with a long-polling Fetch and learn of each change within milliseconds; here
 * a broker says which version it has and its fetch parks in the "MetadataFetch" purgatory, watched on that version,
 * until a change moves the version on ({@link #changed}, called by {@link TopicAssignments} and
 * {@link BrokerMembership} once the change is in the image) or its wait runs out. Either way it answers the current
 * version; the broker fetches the image when that is not the one it has.
 *
 * <p>A broker fetches with the version it has applied (its partitions hosted, led or followed as that image says),
 * so the controller knows how far each has got; a CreateTopics waits in the "CreateTopics" purgatory until the new
 * topic's live replicas have applied it ({@link #awaitApplied}), so that its leader knows the topic before any
 * client is told of it.
 *
 * <p>Versions count from 0 afresh at each start of the controller; a broker asks for the image again after any
 * failed request, so it never compares versions across two of the controller's lives.
 */
public final class ImageVersion implements AutoCloseable {

    /** The one key the waits for brokers to apply a version are watched on: few wait at once. */
    private static final String APPLIED = "applied";
    /** What a broker that has not fetched yet has applied: nothing. */
    private static final long NONE_APPLIED = -1;

    private final AtomicLong version = new AtomicLong();
    private final Purgatory<DelayedImageFetch> purgatory;
    private final Purgatory<DelayedApply> applyWaits;
    /** The version each broker last said it had applied, by broker id. */
    private final Map<Integer, Long> applied = new ConcurrentHashMap<>();

    /** @param clock what the parked fetches' and the CreateTopics' waits run on */
    public ImageVersion(Clock clock) {
        this.purgatory = Purgatory.builder("MetadataFetch").clock(clock).build();
        this.applyWaits = Purgatory.builder("CreateTopics").clock(clock).build();
    }

    /** The version of the image as it is now. */
    public long current() {
        return version.get();
    }

    /**
     * A change is in the image: the version moves on and the fetches waiting at the old one are answered. Called
     * after the change, so a broker told the new version fetches an image that has it.
     */
    public void changed() {
        purgatory.checkAndComplete(version.getAndIncrement());
        applyWaits.checkAndComplete(APPLIED); // a broker that stopped being live is waited for no more
    }

    /**
     * Broker {@code brokerId} has applied image version {@code appliedVersion} (a fetch's offset); -1 when it has
     * none yet, as after its restart.
     */
    public void appliedBy(int brokerId, long appliedVersion) {
        applied.put(brokerId, appliedVersion);
        applyWaits.checkAndComplete(APPLIED);
    }

    /** The version broker {@code brokerId}'s last fetch said it had applied, -1 if it has not fetched from this one. */
    public long appliedBy(int brokerId) {
        return applied.getOrDefault(brokerId, NONE_APPLIED);
    }

    /**
     * Completes once every broker of {@code brokers} that is {@code live} has applied {@code atLeast}, or after
     * {@code maxWaitMs} whether or not they have.
     */
    public CompletableFuture<Void> awaitApplied(long atLeast, Collection<Integer> brokers, IntPredicate live,
                                                long maxWaitMs) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        applyWaits.tryCompleteElseWatch(new DelayedApply(atLeast, List.copyOf(brokers), live, Math.max(0, maxWaitMs),
                done), List.of(APPLIED));
        return done;
    }

    /**
     * Completes with the current version as soon as it is not {@code known} (at once if it already is not), or
     * after {@code maxWaitMs} with the version then, which may still be {@code known}.
     */
    public CompletableFuture<Long> awaitChange(long known, long maxWaitMs) {
        CompletableFuture<Long> answer = new CompletableFuture<>();
        purgatory.tryCompleteElseWatch(new DelayedImageFetch(known, Math.max(0, maxWaitMs), answer), List.of(known));
        return answer;
    }

    /** The purgatory, for its meters. */
    public Purgatory<?> purgatory() {
        return purgatory;
    }

    /**
     * Answers every parked fetch now, with the current version, and every waiting CreateTopics: a stopping
     * controller keeps no one waiting.
     */
    @Override
    public void close() throws InterruptedException {
        purgatory.close();
        applyWaits.close();
    }

    /** A broker's metadata fetch, parked until the version is no longer the one it has. */
    private final class DelayedImageFetch extends DelayedOperation {

        private final long known;
        private final CompletableFuture<Long> answer;

        DelayedImageFetch(long known, long maxWaitMs, CompletableFuture<Long> answer) {
            super(maxWaitMs);
            this.known = known;
            this.answer = answer;
        }

        @Override
        public boolean tryComplete() {
            return current() != known && forceComplete();
        }

        @Override
        protected void onComplete() {
            answer.complete(current());
        }

        @Override
        protected void onExpiration() {
            // Counted by the purgatory's expiration meter; onComplete answered the version, unchanged or not.
        }
    }

    /** A CreateTopics answer waiting for the new topic's replicas to apply the image that has it. */
    private final class DelayedApply extends DelayedOperation {

        private final long atLeast;
        private final List<Integer> brokers;
        private final IntPredicate live;
        private final CompletableFuture<Void> done;

        DelayedApply(long atLeast, List<Integer> brokers, IntPredicate live, long maxWaitMs,
                     CompletableFuture<Void> done) {
            super(maxWaitMs);
            this.atLeast = atLeast;
            this.brokers = brokers;
            this.live = live;
            this.done = done;
        }

        @Override
        public boolean tryComplete() {
            for (int broker : brokers) {
                if (live.test(broker) && applied.getOrDefault(broker, NONE_APPLIED) < atLeast) {
                    return false;
                }
            }
            return forceComplete();
        }

        @Override
        protected void onComplete() {
            done.complete(null);
        }

        @Override
        protected void onExpiration() {
            // A replica that has not applied it by now is stuck or dying: answered as Kafka answers, at commit.
        }
    }
}
