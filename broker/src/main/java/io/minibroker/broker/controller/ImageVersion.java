package io.minibroker.broker.controller;

import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.Clock;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The version of the image brokers fetch, and where their metadata fetches wait for the next one: Kafka's brokers
 * follow the controller's metadata log with a long-polling Fetch and learn of each change within milliseconds; here
 * a broker says which version it has and its fetch parks in the "MetadataFetch" purgatory, watched on that version,
 * until a change moves the version on ({@link #changed}, called by {@link TopicAssignments} and
 * {@link BrokerMembership} once the change is in the image) or its wait runs out. Either way it answers the current
 * version; the broker fetches the image when that is not the one it has.
 *
 * <p>Versions count from 0 afresh at each start of the controller; a broker asks for the image again after any
 * failed request, so it never compares versions across two of the controller's lives.
 */
public final class ImageVersion implements AutoCloseable {

    private final AtomicLong version = new AtomicLong();
    private final Purgatory<DelayedImageFetch> purgatory;

    /** @param clock what the parked fetches' waits run on */
    public ImageVersion(Clock clock) {
        this.purgatory = Purgatory.builder("MetadataFetch").clock(clock).build();
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

    /** Answers every parked fetch now, with the current version: a stopping controller keeps no broker waiting. */
    @Override
    public void close() throws InterruptedException {
        purgatory.close();
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
}
