package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;

import java.util.Map;

/**
 * What an OffsetCommit or a TxnOffsetCommit asks for: its group fields, the offsets of the partitions of known
 * topics, for a TxnOffsetCommit the transaction they are committed in (null for an OffsetCommit), and for an
 * OffsetCommit v2-v4 the retention time it asked for ({@link #DEFAULT_RETENTION_TIME}: the broker's).
 */
record OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                    Map<TopicPartition, OffsetStore.CommittedOffset> offsets, short version, Transaction transaction,
                    long retentionTimeMs) {

    /** Kafka's OffsetCommitRequest.DEFAULT_RETENTION_TIME: the commits expire by {@code offsets.retention.minutes}. */
    static final long DEFAULT_RETENTION_TIME = -1;

    /**
     * The producer whose transaction a TxnOffsetCommit's offsets are part of, and the guard of the verification its
     * write presents ({@link GroupCoordinator#startTransactionVerification}; null when verification is off).
     */
    record Transaction(long producerId, short producerEpoch, VerificationGuard guard) {
    }

    /** A TxnOffsetCommit's, or an OffsetCommit's outside any transaction ({@code transaction} null). */
    OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                 Map<TopicPartition, OffsetStore.CommittedOffset> offsets, short version, Transaction transaction) {
        this(groupId, generationId, memberId, groupInstanceId, offsets, version, transaction, DEFAULT_RETENTION_TIME);
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
