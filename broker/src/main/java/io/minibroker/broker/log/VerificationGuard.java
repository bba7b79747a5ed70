package io.minibroker.broker.log;

/**
 * One verification of a transactional producer on one partition (KIP-890, Kafka's VerificationGuard): handed out by
 * {@link PartitionLog#startTransactionVerification} before the leader asks the coordinator whether the partition is
 * in the producer's transaction, and presented again with the append that follows a yes. The log keeps the
 * producer's guard until its next transactional batch or marker is written; a marker written in between (the
 * transaction ended while the coordinator was answering) drops it, so the late batch presents a guard the log no
 * longer holds and is refused instead of opening a transaction no coordinator knows of. Compared by identity: every
 * guard is a new object, so an answer to an older verification never matches a newer one.
 */
public final class VerificationGuard {

    /**
     * What an append presents when it did not verify: its producer already had a transaction open on the partition
     * (then none is needed), or it skipped the coordinator. It never matches.
     */
    public static final VerificationGuard SENTINEL = new VerificationGuard();

    VerificationGuard() {
    }

    /** Whether {@code presented} is this guard, and a real one (Kafka's verify). */
    boolean verifies(VerificationGuard presented) {
        return presented != SENTINEL && presented == this;
    }

    @Override
    public String toString() {
        return this == SENTINEL ? "VerificationGuard(sentinel)" : "VerificationGuard@" + Integer.toHexString(hashCode());
    }
}
