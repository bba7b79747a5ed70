package io.minibroker.broker.transaction;

/**
 * One marker a transaction coordinator asks a partition leader to write: the producer whose transaction ends, the
 * epoch the marker carries (the producer's current epoch, bumped for TV2 and for an abort on timeout), the
 * coordinator's epoch (its partition's leader epoch of {@code __transaction_state}, written in the marker's value so
 * a stale coordinator's marker can be told apart), the outcome, and the transaction version of the client that ran
 * the transaction (KIP-1228, WriteTxnMarkers v2: 2 when the coordinator bumped the epoch for the marker, which the
 * leader then checks is above the producer's; 0 before).
 */
public record TransactionMarker(long producerId, short producerEpoch, int coordinatorEpoch, TransactionResult result,
                                short transactionVersion) {
}
