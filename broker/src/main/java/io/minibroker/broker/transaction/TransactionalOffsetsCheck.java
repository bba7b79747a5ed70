package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.concurrent.CompletionStage;

/**
 * What the group coordinator asks before writing a TxnOffsetCommit's offsets (KIP-890): from TxnOffsetCommit v5 (a
 * client on transaction version 2, which sends no AddOffsetsToTxn) the group's partition of
 * {@code __consumer_offsets} is added to the transaction implicitly, so that the coordinator writes its marker
 * there and the offsets stop being pending. The answer is NONE (write them) or the error TxnOffsetCommit answers.
 */
@FunctionalInterface
public interface TransactionalOffsetsCheck {

    CompletionStage<Errors> beforeCommit(String transactionalId, long producerId, short producerEpoch,
                                         TopicPartition offsetsPartition, short txnOffsetCommitVersion);

    /** Whether the write presents the guard of a verification started first (as a produce's: KIP-890). */
    default boolean verifiesPartitions() {
        return true;
    }
}
