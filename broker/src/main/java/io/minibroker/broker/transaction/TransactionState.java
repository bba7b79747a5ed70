package io.minibroker.broker.transaction;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Kafka's transaction states, with the ids {@code __transaction_state} stores (TransactionLogValue's
 * TransactionStatus) and the names DescribeTransactions and ListTransactions use. Each state names the states it may
 * be reached from, as Kafka's TransactionState.validPreviousStates, and {@link TransactionMetadata#transitionTo}
 * refuses any other move.
 */
public enum TransactionState {
    EMPTY(0, "Empty", true),
    ONGOING(1, "Ongoing", false),
    PREPARE_COMMIT(2, "PrepareCommit", false),
    PREPARE_ABORT(3, "PrepareAbort", false),
    COMPLETE_COMMIT(4, "CompleteCommit", true),
    COMPLETE_ABORT(5, "CompleteAbort", true),
    DEAD(6, "Dead", false),
    PREPARE_EPOCH_FENCE(7, "PrepareEpochFence", false);

    private final byte id;
    private final String stateName;
    private final boolean expirationAllowed;
    private Set<TransactionState> validPrevious;

    static {
        EMPTY.validPrevious = EnumSet.of(EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        ONGOING.validPrevious = EnumSet.of(ONGOING, EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        PREPARE_COMMIT.validPrevious = EnumSet.of(ONGOING);
        // TV2 lets a client abort when it does not know whether a transaction is open (KIP-890).
        PREPARE_ABORT.validPrevious = EnumSet.of(ONGOING, PREPARE_EPOCH_FENCE, EMPTY, COMPLETE_COMMIT, COMPLETE_ABORT);
        COMPLETE_COMMIT.validPrevious = EnumSet.of(PREPARE_COMMIT);
        COMPLETE_ABORT.validPrevious = EnumSet.of(PREPARE_ABORT);
        DEAD.validPrevious = EnumSet.of(EMPTY, COMPLETE_ABORT, COMPLETE_COMMIT);
        PREPARE_EPOCH_FENCE.validPrevious = EnumSet.of(ONGOING);
    }

    TransactionState(int id, String stateName, boolean expirationAllowed) {
        this.id = (byte) id;
        this.stateName = stateName;
        this.expirationAllowed = expirationAllowed;
    }

    public byte id() {
        return id;
    }

    /** The name DescribeTransactions and ListTransactions give. */
    public String stateName() {
        return stateName;
    }

    /** Whether a transactional id idle in this state may expire ({@code transactional.id.expiration.ms}). */
    public boolean expirationAllowed() {
        return expirationAllowed;
    }

    public boolean canFollow(TransactionState previous) {
        return validPrevious.contains(previous);
    }

    /** A transaction waiting for its markers: the client is told CONCURRENT_TRANSACTIONS until it completes. */
    public boolean isPrepare() {
        return this == PREPARE_COMMIT || this == PREPARE_ABORT;
    }

    public boolean isComplete() {
        return this == COMPLETE_COMMIT || this == COMPLETE_ABORT;
    }

    public static TransactionState fromId(byte id) {
        for (TransactionState state : values()) {
            if (state.id == id) {
                return state;
            }
        }
        throw new IllegalArgumentException("unknown transaction state id " + id);
    }

    public static Optional<TransactionState> fromName(String name) {
        for (TransactionState state : values()) {
            if (state.stateName.equals(name)) {
                return Optional.of(state);
            }
        }
        return Optional.empty();
    }
}
