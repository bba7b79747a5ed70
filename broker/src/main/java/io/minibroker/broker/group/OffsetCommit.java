package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;

import java.util.Map;

/**
 * What an OffsetCommit or a TxnOffsetCommit asks for: its group fields, the offsets of the partitions of known
 * topics, and for a TxnOffsetCommit the transaction they are committed in (null for an OffsetCommit).
 */
record OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                    Map<TopicPartition, OffsetStore.CommittedOffset> offsets, short version, Transaction transaction) {

    /**
     * The producer whose transaction a TxnOffsetCommit's offsets are part of, and the guard of the verification its
     * write presents ({@link GroupCoordinator#startTransactionVerification}; null when verification is off).
     */
    record Transaction(long producerId, short producerEpoch, VerificationGuard guard) {
    }

    /** An OffsetCommit's: outside any transaction. */
    OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                 Map<TopicPartition, OffsetStore.CommittedOffset> offsets, short version) {
        this(groupId, generationId, memberId, groupInstanceId, offsets, version, null);
    }

    boolean transactional() {
        return transaction != null;
    }
}
