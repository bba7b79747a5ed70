package io.minibroker.broker.fetch;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TimestampAndOffset;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ListOffsetsRequestView;
import io.minibroker.protocol.message.view.ListOffsetsRequestView.ListOffsetsPartition;
import io.minibroker.protocol.message.view.ListOffsetsRequestView.ListOffsetsTopic;
import io.minibroker.protocol.message.view.ListOffsetsResponseView;
import io.minibroker.protocol.message.view.ListOffsetsResponseView.ListOffsetsPartitionResponse;
import io.minibroker.protocol.message.view.ListOffsetsResponseView.ListOffsetsTopicResponse;
import io.minibroker.protocol.schema.Struct;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ListOffsets: the earliest (-2) and latest (-1) offsets, the record with the largest timestamp (-3, v7+), the
 * earliest local offset (-4, v8+: the log start, as nothing is tiered), the latest tiered (-5, v9+) and earliest
 * pending upload (-6, v11+) offsets (-1: nothing is tiered), or the first record at or after a timestamp. Any other
 * negative timestamp, or a special one at a version older than it, is UNSUPPORTED_VERSION; a partition named twice
 * is answered once, INVALID_REQUEST, and a topic named in two entries in one, as Kafka's ReplicaManager.fetchOffset
 * answers them (its results are a map by partition, grouped by topic). With nothing that late, the answer is offset
 * -1 and timestamp -1, as Kafka gives it. Each offset comes with the leader epoch of its batch (of the latest epoch,
 * for LATEST), -1 when none is known.
 *
 * <p>Only a partition's leader answers, as in Kafka (NOT_LEADER_OR_FOLLOWER elsewhere, unless the debugging
 * replica id -2 asks): a follower's high watermark lags the leader's, and a broker that has not taken its first
 * image since a restart would answer its log end. The current leader epoch a client names is checked first, for
 * every replica id, as Kafka's getLocalLog does (FENCED_LEADER_EPOCH when older, UNKNOWN_LEADER_EPOCH when
 * newer; see {@link PartitionLeadership#checkLeaderEpoch}). LATEST is the high watermark for
 * read_uncommitted and the last stable offset for read_committed, which is the high watermark too without
 * transactions. A timestamp lookup (and MAX_TIMESTAMP) finds only records below it, as Kafka's
 * lastFetchableOffset rule: an offset a failover may still cut away is never handed to a consumer (replica id
 * -1, whatever the version: before v2 the isolation level is read_uncommitted). For a replica's id, and the
 * debugging one, the log end is the bound, as in Kafka. A new leader
 * whose high watermark is still below its epoch's start answers LATEST, and a lookup it cannot answer below the
 * high watermark, OFFSET_NOT_AVAILABLE, as Kafka does, and the client retries.
 */
public final class ListOffsetsHandler implements ApiHandler {

    private static final long LATEST = -1;
    private static final long EARLIEST = -2;
    private static final long MAX_TIMESTAMP = -3;
    private static final long EARLIEST_LOCAL = -4;
    private static final long LATEST_TIERED = -5;
    private static final long EARLIEST_PENDING_UPLOAD = -6;
    /** Before v5 a client does not know OFFSET_NOT_AVAILABLE: Kafka answers it LEADER_NOT_AVAILABLE. */
    private static final int OFFSET_NOT_AVAILABLE_FROM_VERSION = 5;
    /** Kafka's DEBUGGING_REPLICA_ID: may read offsets from any replica. */
    private static final int DEBUGGING_REPLICA_ID = -2;
    private static final int CURRENT_LEADER_EPOCH_FROM_VERSION = 4;
    /** A client's ListOffsets, bounded by the high watermark; a replica's (or the debugging id's) by the log end. */
    private static final int CONSUMER_REPLICA_ID = -1;
    private static final int NO_EPOCH = -1;
    private static final int ISOLATION_LEVEL_FROM_VERSION = 2;
    private static final byte READ_COMMITTED = 1;

    private final TopicRegistry topics;
    private final PartitionLeadership leadership;

    public ListOffsetsHandler(TopicRegistry topics, PartitionLeadership leadership) {
        this.topics = topics;
        this.leadership = leadership;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        ListOffsetsRequestView body = new ListOffsetsRequestView(request.body());
        ListOffsetsResponseView response = new ListOffsetsResponseView();
        int replicaId = body.replicaId();
        boolean fromAnyReplica = replicaId == DEBUGGING_REPLICA_ID;
        boolean committedOnly = replicaId == CONSUMER_REPLICA_ID;
        boolean readCommitted = request.version() >= ISOLATION_LEVEL_FROM_VERSION
                && body.isolationLevel() == READ_COMMITTED;
        Set<PartitionKey> duplicates = duplicatePartitions(body);
        Set<PartitionKey> duplicatesAnswered = duplicates.isEmpty() ? Set.of() : new HashSet<>();
        Map<String, ListOffsetsTopicResponse> topicResponses = new HashMap<>();
        for (ListOffsetsTopic topic : body.topics()) {
            String name = topic.name();
            ListOffsetsTopicResponse topicResponse = topicResponses.computeIfAbsent(name,
                    named -> response.addTopic().name(named));
            Optional<TopicMetadata> metadata = topics.get(name);
            for (ListOffsetsPartition partition : topic.partitions()) {
                int index = partition.partitionIndex();
                boolean duplicate = !duplicates.isEmpty() && duplicates.contains(new PartitionKey(name, index));
                if (duplicate && !duplicatesAnswered.add(new PartitionKey(name, index))) {
                    continue;
                }
                ListOffsetsPartitionResponse result = topicResponse.addPartition().partitionIndex(index)
                        .timestamp(-1L).offset(-1L).leaderEpoch(NO_EPOCH);
                if (duplicate) {
                    result.errorCode(Errors.INVALID_REQUEST.code());
                    continue;
                }
                if (timestampUnsupported(partition.timestamp(), request.version())) {
                    result.errorCode(Errors.UNSUPPORTED_VERSION.code());
                    continue;
                }
                Optional<PartitionLog> log = metadata.flatMap(t -> topics.partitionLog(t, index));
                if (log.isEmpty()) {
                    result.errorCode(topics.partitionNotHere(false, name, null, index).code());
                    continue;
                }
                int currentLeaderEpoch = request.version() >= CURRENT_LEADER_EPOCH_FROM_VERSION
                        ? partition.currentLeaderEpoch() : NO_EPOCH;
                Errors refused = leadership.checkLeaderEpoch(log.get().topicPartition(), currentLeaderEpoch,
                        !fromAnyReplica);
                if (refused != Errors.NONE) {
                    result.errorCode(refused.code());
                    continue;
                }
                try {
                    lookUp(log.get(), partition.timestamp(), committedOnly, readCommitted, result);
                } catch (LogException e) {
                    result.errorCode(e.error().code());
                }
                if (result.errorCode() == Errors.OFFSET_NOT_AVAILABLE.code()
                        && request.version() < OFFSET_NOT_AVAILABLE_FROM_VERSION) {
                    result.errorCode(Errors.LEADER_NOT_AVAILABLE.code()); // an older client retries on this one
                }
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }

    /**
     * A partition as a request names it: unlike {@link TopicPartition}, an empty name or a negative index is allowed
     * here, since such a partition is answered UNKNOWN_TOPIC_OR_PARTITION, not refused as a whole.
     */
    private record PartitionKey(String topic, int partition) {
    }

    /**
     * Kafka's duplicatePartitions of a request: each named more than once; none (no set made) for the common request
     * that names each once.
     */
    private static Set<PartitionKey> duplicatePartitions(ListOffsetsRequestView body) {
        Set<PartitionKey> seen = new HashSet<>();
        Set<PartitionKey> duplicates = null;
        for (ListOffsetsTopic topic : body.topics()) {
            for (ListOffsetsPartition partition : topic.partitions()) {
                PartitionKey key = new PartitionKey(topic.name(), partition.partitionIndex());
                if (!seen.add(key)) {
                    duplicates = duplicates == null ? new HashSet<>() : duplicates;
                    duplicates.add(key);
                }
            }
        }
        return duplicates == null ? Set.of() : duplicates;
    }

    /**
     * Kafka's isListOffsetsTimestampUnsupported: a negative timestamp other than the special ones, or a special one
     * older than the version that brought it.
     */
    private static boolean timestampUnsupported(long timestamp, short version) {
        if (timestamp >= 0) {
            return false;
        }
        int since = timestamp == LATEST || timestamp == EARLIEST ? 0
                : timestamp == MAX_TIMESTAMP ? 7
                : timestamp == EARLIEST_LOCAL ? 8
                : timestamp == LATEST_TIERED ? 9
                : timestamp == EARLIEST_PENDING_UPLOAD ? 11
                : Integer.MAX_VALUE;
        return version < since;
    }

    private static void lookUp(PartitionLog log, long timestamp, boolean committedOnly, boolean readCommitted,
                               ListOffsetsPartitionResponse result) {
        long fetchableEnd = !committedOnly ? log.logEndOffset()
                : readCommitted ? log.lastStableOffset() : log.highWatermark();
        if (timestamp == LATEST) {
            if (committedOnly && highWatermarkBehindItsEpoch(log)) {
                result.errorCode(Errors.OFFSET_NOT_AVAILABLE.code());
                return;
            }
            result.offset(fetchableEnd).leaderEpoch(log.latestEpoch());
        } else if (timestamp == EARLIEST || timestamp == EARLIEST_LOCAL) {
            long start = log.logStartOffset();
            result.offset(start).leaderEpoch(log.epochForOffset(start));
        } else if (timestamp == LATEST_TIERED || timestamp == EARLIEST_PENDING_UPLOAD) {
            result.offset(-1L); // nothing is tiered, or waits to be
        } else {
            Optional<TimestampAndOffset> found = timestamp == MAX_TIMESTAMP
                    ? log.maxTimestampAndOffset() : log.offsetForTimestamp(timestamp);
            Optional<TimestampAndOffset> fetchable = found.filter(f -> f.offset() < fetchableEnd);
            if (fetchable.isEmpty() && committedOnly && highWatermarkBehindItsEpoch(log)) {
                // A new leader whose high watermark has not reached its epoch yet may not know the answer.
                result.errorCode(Errors.OFFSET_NOT_AVAILABLE.code());
                return;
            }
            fetchable.ifPresent(f -> result.timestamp(f.timestamp()).offset(f.offset())
                    .leaderEpoch(f.offset() < 0 ? NO_EPOCH : log.epochForOffset(f.offset())));
        }
    }

    /**
     * Kafka's OFFSET_NOT_AVAILABLE case: this leader's epoch starts above its high watermark, so the high watermark
     * is still the previous leader's and may go up without any new append; answering it could send a consumer back.
     */
    private static boolean highWatermarkBehindItsEpoch(PartitionLog log) {
        return log.latestEpochStartOffset() > log.highWatermark(); // -1, with no epoch, is never above it
    }
}
