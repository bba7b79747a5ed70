package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;

/**
 * Told when a transaction's marker has been appended to a partition of {@code __consumer_offsets} this broker leads:
 * the group coordinator makes the offsets that producer committed in the transaction visible (COMMIT) or drops them
 * (ABORT), as Kafka's GroupCoordinator.onTransactionCompleted.
 */
@FunctionalInterface
public interface TransactionCompletionListener {

    void onTransactionCompleted(TopicPartition offsetsPartition, long producerId, TransactionResult result);
}
