package io.minibroker.broker.log;

import java.util.HashMap;
import java.util.Map;

/**
 * The verifications a leader has started for producers with no transaction open on its partition yet (Kafka's
 * ProducerStateManager verificationStates): per producer its {@link VerificationGuard}, the epoch it was started at,
 * the lowest sequence verified at that epoch, and when. While one is held, a batch of the producer with a higher
 * sequence than that lowest one is out of order (Kafka's VerificationStateEntry): an earlier batch that failed its
 * verification with an error the producer retries must go in first, else it could never follow. Each transactional batch or marker of the producer written to the log ends it ({@link #onWritten}): a data
 * batch has opened the transaction (from then on the open transaction is the check), a marker has ended the one the
 * coordinator answered about. Except, as Kafka, a marker at the very epoch of a verification a transaction version 2
 * producer started: that is the previous transaction's late marker (its coordinator bumped the epoch the producer now
 * uses), and the verification is for the next transaction, still to come. A verification no append follows is dropped
 * after {@code producer.id.expiration.ms}, as Kafka drops it, so that the map stays bounded.
 *
 * <p>Changed and read under the log's monitor.
 */
final class TransactionVerifications {

    private record Entry(VerificationGuard guard, short epoch, int lowestSequence, boolean supportsEpochBump,
                         long timestamp) {
    }

    private final Map<Long, Entry> entries = new HashMap<>();

    /**
     * The producer's guard for a batch from {@code sequence}, started now if it has none. One held already keeps its
     * guard, as Kafka's entry does, and takes a lower sequence at its epoch, or a higher epoch with its sequence.
     */
    VerificationGuard start(long producerId, short epoch, int sequence, boolean supportsEpochBump, long now) {
        Entry entry = entries.get(producerId);
        if (entry == null) {
            entry = new Entry(new VerificationGuard(), epoch, sequence, supportsEpochBump, now);
            entries.put(producerId, entry);
        } else if (epoch > entry.epoch() || (epoch == entry.epoch() && sequence < entry.lowestSequence())) {
            entry = new Entry(entry.guard(), epoch, sequence, supportsEpochBump, entry.timestamp());
            entries.put(producerId, entry);
        }
        return entry.guard();
    }

    /**
     * The lowest sequence of the producer's verification, which no batch of it above may go ahead of; -1 if none is
     * held.
     */
    int lowestSequence(long producerId) {
        if (entries.isEmpty()) { // asked at every idempotent append, where almost no producer is being verified
            return -1;
        }
        Entry entry = entries.get(producerId);
        return entry == null ? -1 : entry.lowestSequence();
    }

    /** Whether {@code presented} is the producer's guard (never for {@link VerificationGuard#SENTINEL}). */
    boolean verifies(long producerId, VerificationGuard presented) {
        Entry entry = entries.get(producerId);
        return entry != null && entry.guard().verifies(presented);
    }

    /** A transactional batch ({@code control}: a marker) of {@code producerId} at {@code epoch} was written. */
    void onWritten(long producerId, short epoch, boolean control) {
        Entry entry = entries.get(producerId);
        if (entry != null && !(entry.supportsEpochBump() && control && epoch == entry.epoch())) {
            entries.remove(producerId);
        }
    }

    /** Drops the verifications started {@code expirationMs} or more before {@code now}. */
    void removeExpired(long now, long expirationMs) {
        entries.values().removeIf(entry -> now - entry.timestamp() >= expirationMs);
    }
}
