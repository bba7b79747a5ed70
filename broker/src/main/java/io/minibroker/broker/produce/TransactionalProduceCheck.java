package io.minibroker.broker.produce;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * What a partition leader asks before appending a transactional producer's batches (KIP-890): from Produce v12 (a
 * client on transaction version 2, which sends no AddPartitionsToTxn) the partitions are added to the transaction
 * implicitly; below, a client on version 1 must have added them itself, which is verified. Each partition's answer
 * is NONE (append) or the error the produce answers for it.
 */
@FunctionalInterface
public interface TransactionalProduceCheck {

    /** From this Produce version the client uses transaction version 2 (KIP-890): it sends no AddPartitionsToTxn. */
    short TRANSACTION_VERSION_2_PRODUCE_FROM = 12;

    /** Whether a Produce of {@code produceVersion} comes from a transaction version 2 client. */
    static boolean usesTransactionVersion2(short produceVersion) {
        return produceVersion >= TRANSACTION_VERSION_2_PRODUCE_FROM;
    }

    CompletionStage<Map<TopicPartition, Errors>> beforeAppend(String transactionalId, long producerId,
                                                                short producerEpoch,
                                                                Collection<TopicPartition> partitions,
                                                                short produceVersion);

    /**
     * Whether a transactional batch that would open its producer's transaction on a partition must present the guard
     * of a verification started before this check (KIP-890, {@code transaction.partition.verification.enable}, read
     * once by whoever builds the check): yes, but for the check a broker builds with it off (its transaction package's
     * CoordinatorProduceCheck.addingOnly).
     */
    default boolean verifiesPartitions() {
        return true;
    }
}
