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

    CompletionStage<Map<TopicPartition, Errors>> beforeAppend(String transactionalId, long producerId,
                                                                short producerEpoch,
                                                                Collection<TopicPartition> partitions,
                                                                short produceVersion);
}
