package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;

import java.util.Set;

/**
 * One transactional id's state, as {@code __transaction_state} stores it (Kafka's TransactionMetadata, immutable
 * here: a change is a new value, written to the log before it replaces the old one).
 *
 * @param previousProducerId    the producer id before the last rotation (-1 if none)
 * @param nextProducerId        the producer id a TV2 transaction ending on an exhausted epoch moves to (-1 if none)
 * @param lastProducerEpoch     the epoch before the last bump, so that a retried bump is recognised; not stored in the
 *                              log, as in Kafka (-1 after a load)
 * @param startTimestamp        when the ongoing transaction began (-1 if none)
 * @param clientTransactionVersion the transaction version the client uses (2 for KIP-890's protocol, else 0)
 */
public record TransactionMetadata(String transactionalId, long producerId, long previousProducerId,
                                  long nextProducerId, short producerEpoch, short lastProducerEpoch, int timeoutMs,
                                  TransactionState state, Set<TopicPartition> partitions, long startTimestamp,
                                  long lastUpdateTimestamp, short clientTransactionVersion) {

    public static final short NO_EPOCH = -1;
    public static final long NO_PRODUCER_ID = -1;

    public TransactionMetadata {
        partitions = Set.copyOf(partitions);
    }

    /** Kafka's isEpochExhausted: the last epoch before the producer id must change. */
    public static boolean isEpochExhausted(short epoch) {
        return epoch >= Short.MAX_VALUE - 1;
    }

    /**
     * The last epoch to record when the coordinator fences this id's open transaction (its timeout, or another
     * instance's InitProducerId). Kafka's coordinator ends a fenced transaction by the finalized transaction version,
     * whatever the client's: at version 2 the fenced epoch, so that a retried EndTxn (TV2) or a KIP-360
     * InitProducerId naming it (any client) is taken for a retry and answered with the bumped epoch; at version 1 none,
     * as its endTransactionWithTV1 records, so that InitProducerId is PRODUCER_FENCED. Checked against Kafka 4.3.1 with
     * transaction.version 2 and 1 finalized.
     *
     * @param finalizedTransactionVersion the coordinator's {@code transaction.version} feature level
     */
    public short lastEpochWhenFenced(short finalizedTransactionVersion) {
        return finalizedTransactionVersion >= 2 ? producerEpoch : NO_EPOCH;
    }

    /** This state moved to {@code next}, with the other values given; throws on a move Kafka does not allow. */
    public TransactionMetadata transitionTo(TransactionState next, long producerId, short producerEpoch,
                                            short lastProducerEpoch, Set<TopicPartition> partitions,
                                            long startTimestamp, long now) {
        if (!next.canFollow(state)) {
            throw new IllegalStateException(transactionalId + " cannot move from " + state + " to " + next);
        }
        long previous = producerId != this.producerId ? this.producerId : previousProducerId;
        return new TransactionMetadata(transactionalId, producerId, previous, nextProducerId, producerEpoch,
                lastProducerEpoch, timeoutMs, next, partitions, startTimestamp, now, clientTransactionVersion);
    }

    public TransactionMetadata withTimeout(int timeoutMs) {
        return new TransactionMetadata(transactionalId, producerId, previousProducerId, nextProducerId, producerEpoch,
                lastProducerEpoch, timeoutMs, state, partitions, startTimestamp, lastUpdateTimestamp,
                clientTransactionVersion);
    }

    public TransactionMetadata withNextProducerId(long nextProducerId) {
        return new TransactionMetadata(transactionalId, producerId, previousProducerId, nextProducerId, producerEpoch,
                lastProducerEpoch, timeoutMs, state, partitions, startTimestamp, lastUpdateTimestamp,
                clientTransactionVersion);
    }

    public TransactionMetadata withClientTransactionVersion(short version) {
        return new TransactionMetadata(transactionalId, producerId, previousProducerId, nextProducerId, producerEpoch,
                lastProducerEpoch, timeoutMs, state, partitions, startTimestamp, lastUpdateTimestamp, version);
    }
}
