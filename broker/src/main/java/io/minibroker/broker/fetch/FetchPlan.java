package io.minibroker.broker.fetch;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.fetch.session.CachedPartition;
import io.minibroker.broker.fetch.session.FetchContext;
import io.minibroker.broker.fetch.session.FetchSession;
import io.minibroker.broker.fetch.session.SessionPartition;
import io.minibroker.broker.log.LeaderEpochCache;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchRequestView.FetchPartition;
import io.minibroker.protocol.message.view.FetchRequestView.FetchTopic;
import io.minibroker.protocol.message.view.FetchRequestView.ReplicaState;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * A fetch request resolved against the topics: for each requested partition, its log (or the error that
 * replaces it) and where to read. Built once; both the immediate answer and a parked fetch read from it.
 */
record FetchPlan(short version, int replicaId, long replicaEpoch, int minBytes, int maxBytes, byte isolationLevel,
                 List<TopicPlan> topics, PartitionLeadership leadership, boolean fetchOnlyLeader, FetchContext context,
                 CachedPartition[] cached, String clientRack, String listener) {

    /** IsolationLevel READ_COMMITTED (1): read up to the last stable offset, told of the aborted transactions. */
    private static final byte READ_COMMITTED = 1;
    /** IsolationLevel came with v4; before, every fetch is read_uncommitted. */
    private static final int ISOLATION_LEVEL_FROM_VERSION = 4;

    private static final int TOPIC_IDS_FROM_VERSION = 13;
    private static final int LOG_START_OFFSET_FROM_VERSION = 5;
    /** CurrentLeaderEpoch came with v9 (KIP-320); -1 asks for no check. */
    private static final int CURRENT_LEADER_EPOCH_FROM_VERSION = 9;
    private static final int NO_EPOCH = -1;
    /**
     * From v15 a follower names itself in ReplicaState with its broker epoch (KIP-903), before in ReplicaId only;
     * consumers send -1.
     */
    private static final int REPLICA_STATE_FROM_VERSION = 15;
    /** LastFetchedEpoch came with v12 (KIP-595's truncation on fetch); -1 asks for no check. */
    private static final int LAST_FETCHED_EPOCH_FROM_VERSION = 12;
    /**
     * From v11 a fetch carries the client's metadata (its RackId), and Kafka's KafkaApis lets a consumer's such fetch
     * read from a follower (KIP-392): its fetchOnlyLeader is false.
     */
    private static final int FOLLOWER_READS_FROM_VERSION = 11;

    record TopicPlan(String name, UUID id, List<PartitionPlan> partitions) {
    }

    /**
     * A partition's part; {@code logStartOffset} is a follower's (-1 from a consumer); {@code divergingEpoch} where
     * the fetcher's log diverges from ours, null when it does not (or it named no LastFetchedEpoch);
     * {@code preferredReadReplica} the replica a consumer is pointed to instead of reading here (KIP-392), -1 for none.
     */
    record PartitionPlan(int index, long fetchOffset, long logStartOffset, int maxBytes, PartitionLog log,
                         Errors error, LeaderEpochCache.EpochEnd divergingEpoch, int preferredReadReplica) {

        /** Whether the consumer is pointed to another replica: this partition is answered without records. */
        boolean pointsElsewhere() {
            return preferredReadReplica >= 0;
        }
    }

    /**
     * Resolves the request; a partition this broker does not lead is NOT_LEADER_OR_FOLLOWER to followers and to
     * consumers' fetches before v11; a consumer's v11+ fetch is served by any replica here, up to its high watermark
     * (Kafka's fetchOnlyLeader is false when a consumer's fetch carries client metadata, KIP-392). From v9 the
     * CurrentLeaderEpoch a fetcher names is checked first, as Kafka's localLogWithEpochOrThrow does: older than ours
     * FENCED_LEADER_EPOCH (the fetcher's metadata is stale), newer UNKNOWN_LEADER_EPOCH (ours is), -1 no check. Then
     * a follower's fetch from a broker that is no follower of the partition here is refused, as Kafka's
     * followerReplicaOrThrow refuses it: UNKNOWN_LEADER_EPOCH when it named an epoch, NOT_LEADER_OR_FOLLOWER when
     * not (see {@link PartitionLeadership#hasFollower}). From
     * v12 a LastFetchedEpoch is checked against our log as Kafka's Partition.readRecords checks it, for whoever names
     * one (kafka-clients consumers name none): where that epoch ends here (the greatest of ours not above it) is
     * OFFSET_OUT_OF_RANGE when we have no such epoch or the fetch offset is below our log start, and the partition's
     * DivergingEpoch, read in place of records, when it is an older epoch or ends before the fetch offset.
     * As Kafka's KafkaApis, the request's MaxBytes is bounded by the broker's {@code fetchMaxBytes}
     * ({@code fetch.max.bytes}), and its MinBytes by that bound: a fetch never waits for more than it could be answered.
     * An incremental fetch (KIP-227) reads its session's partitions, each as the fetcher last asked for it.
     * A consumer's v11+ fetch names its rack (RackId, its {@code client.rack}): a leader whose
     * {@code replica.selector.class} points it to another replica answers that partition with the
     * PreferredReadReplica and no records, at once, as Kafka's ReplicaManager.readFromLog (the DivergingEpoch check,
     * part of the read it skips, is skipped too). As Kafka chooses at every read, a fetch that parked (no partition
     * was pointed elsewhere then) is asked again when it completes ({@link #choosePreferredReadReplica}).
     */
    static FetchPlan of(Request request, FetchContext context, TopicRegistry registry, PartitionLeadership leadership,
                        int fetchMaxBytes, String listener) {
        FetchRequestView body = new FetchRequestView(request.body());
        short version = request.version();
        ReplicaState replicaState = version >= REPLICA_STATE_FROM_VERSION ? body.replicaState() : null;
        int replicaId = replicaIdOf(request, body);
        long replicaEpoch = replicaState == null ? -1 : replicaState.replicaEpoch();
        boolean fetchOnlyLeader = replicaId >= 0 || version < FOLLOWER_READS_FROM_VERSION;
        String clientRack = fetchOnlyLeader ? null : body.rackId();
        Resolver resolver = new Resolver(version, registry, leadership, replicaId, fetchOnlyLeader, clientRack,
                listener);
        List<TopicPlan> topics;
        CachedPartition[] cached = null;
        if (context instanceof FetchContext.Incremental incremental) {
            FetchSession session = incremental.session();
            synchronized (session) {
                cached = session.partitions().toArray(new CachedPartition[0]);
            }
            topics = resolver.session(cached);
        } else {
            topics = resolver.request(body);
        }
        FetchBytes bytes = FetchBytes.capped(body.minBytes(), version >= 3 ? body.maxBytes() : Integer.MAX_VALUE,
                fetchMaxBytes);
        byte isolationLevel = version >= ISOLATION_LEVEL_FROM_VERSION ? body.isolationLevel() : 0;
        return new FetchPlan(version, replicaId, replicaEpoch, bytes.minBytes(), bytes.maxBytes(),
                isolationLevel, topics, leadership, fetchOnlyLeader, context, cached, clientRack, listener);
    }

    /** The follower's id that sent the fetch, or -1 from a consumer. */
    static int replicaIdOf(Request request, FetchRequestView body) {
        // ReplicaState is a non-nullable struct that starts as its defaults (-1, -1) when a request leaves it out.
        return request.version() >= REPLICA_STATE_FROM_VERSION ? body.replicaState().replicaId() : body.replicaId();
    }

    /** Resolves the partitions a fetch reads, named by the request or, for an incremental fetch, by its session. */
    private record Resolver(short version, TopicRegistry registry, PartitionLeadership leadership, int replicaId,
                            boolean fetchOnlyLeader, String clientRack, String listener) {

        List<TopicPlan> request(FetchRequestView body) {
            boolean byId = version >= TOPIC_IDS_FROM_VERSION;
            List<TopicPlan> topics = new ArrayList<>();
            for (FetchTopic topic : body.topics()) {
                String name = byId ? null : topic.topic();
                UUID id = byId ? topic.topicId() : null;
                Optional<TopicMetadata> metadata = registry.resolve(byId, name, id);
                List<PartitionPlan> partitions = new ArrayList<>();
                for (FetchPartition partition : topic.partitions()) {
                    partitions.add(partition(metadata, name, id, partition.partition(), partition.fetchOffset(),
                            partition.logStartOffset(), partition.partitionMaxBytes(), partition.currentLeaderEpoch(),
                            partition.lastFetchedEpoch()));
                }
                topics.add(new TopicPlan(name, id, partitions));
            }
            return topics;
        }

        /**
         * The session's partitions in its order, a topic's run of them one TopicPlan (a topic may come back later in
         * the order, as in Kafka's answer), each with what the fetcher last asked for it.
         */
        List<TopicPlan> session(CachedPartition[] cached) {
            boolean byId = version >= TOPIC_IDS_FROM_VERSION;
            List<TopicPlan> topics = new ArrayList<>();
            List<PartitionPlan> partitions = null;
            Optional<TopicMetadata> metadata = Optional.empty();
            SessionPartition previous = null;
            for (CachedPartition partition : cached) {
                SessionPartition key = partition.key();
                if (previous == null || !Objects.equals(previous.topic(), key.topic())
                        || !Objects.equals(previous.topicId(), key.topicId())) {
                    metadata = registry.resolve(byId, key.topic(), key.topicId());
                    partitions = new ArrayList<>();
                    topics.add(new TopicPlan(key.topic(), key.topicId(), partitions));
                }
                previous = key;
                partitions.add(partition(metadata, key.topic(), key.topicId(), key.partition(),
                        partition.fetchOffset(), partition.fetcherLogStartOffset(), partition.maxBytes(),
                        partition.currentLeaderEpoch(), partition.lastFetchedEpoch()));
            }
            return topics;
        }

        private PartitionPlan partition(Optional<TopicMetadata> metadata, String name, UUID id, int index,
                                        long fetchOffset, long logStartOffset, int maxBytes, int currentLeaderEpoch,
                                        int lastFetchedEpoch) {
            boolean byId = version >= TOPIC_IDS_FROM_VERSION;
            Optional<PartitionLog> log = metadata.flatMap(t -> registry.partitionLog(t, index));
            int checkedLeaderEpoch = version >= CURRENT_LEADER_EPOCH_FROM_VERSION ? currentLeaderEpoch : NO_EPOCH;
            Errors error = log.isPresent()
                    ? leadership.checkLeaderEpoch(log.get().topicPartition(), checkedLeaderEpoch, fetchOnlyLeader)
                    : registry.partitionNotHere(byId, name, id, index); // elsewhere, or nowhere
            if (error == Errors.NONE && log.isPresent() && replicaId >= 0
                    && !leadership.hasFollower(log.get().topicPartition(), replicaId)) {
                // Kafka's followerReplicaOrThrow, after the epoch check and before the read: a follower that is not
                // (yet) a replica here, as a reassignment's new one is until this leader has the image that adds it,
                // is told that our epoch does not know it, and asks again after its backoff
                error = checkedLeaderEpoch >= 0 ? Errors.UNKNOWN_LEADER_EPOCH : Errors.NOT_LEADER_OR_FOLLOWER;
            }
            int preferred = error == Errors.NONE && log.isPresent()
                    ? preferredReadReplica(leadership, fetchOnlyLeader, clientRack, listener, log.get(), fetchOffset)
                    : -1;
            int checkedFetchedEpoch = version >= LAST_FETCHED_EPOCH_FROM_VERSION ? lastFetchedEpoch : NO_EPOCH;
            LeaderEpochCache.EpochEnd diverging = null;
            if (error == Errors.NONE && log.isPresent() && checkedFetchedEpoch != NO_EPOCH && preferred < 0) {
                LeaderEpochCache.EpochEnd end = log.get().endOffsetForEpoch(checkedFetchedEpoch);
                if (end.epoch() == LeaderEpochCache.UNDEFINED_EPOCH
                        || end.endOffset() == LeaderEpochCache.UNDEFINED_OFFSET
                        || fetchOffset < log.get().logStartOffset()) {
                    error = Errors.OFFSET_OUT_OF_RANGE;
                } else if (end.epoch() < checkedFetchedEpoch || end.endOffset() < fetchOffset) {
                    diverging = end;
                }
            }
            if (error != Errors.NONE) {
                log = Optional.empty();
            }
            return new PartitionPlan(index, fetchOffset,
                    version >= LOG_START_OFFSET_FROM_VERSION ? logStartOffset : -1, maxBytes, log.orElse(null), error,
                    diverging, preferred);
        }
    }

    /** The replica a consumer's fetch of this log may be pointed to, -1 for none (a follower's fetch: never). */
    private static int preferredReadReplica(PartitionLeadership leadership, boolean fetchOnlyLeader, String clientRack,
                                            String listener, PartitionLog log, long fetchOffset) {
        return fetchOnlyLeader ? -1
                : leadership.preferredReadReplica(log.topicPartition(), clientRack, listener, fetchOffset);
    }

    /**
     * The replica this partition is pointed to as the fetch completes after parking: the one chosen when it was
     * planned (none, or it would not have parked) or, as Kafka's readFromLog chooses again, the one chosen now.
     */
    int choosePreferredReadReplica(PartitionPlan partition) {
        if (partition.pointsElsewhere() || partition.log() == null || partition.error() != Errors.NONE) {
            return partition.preferredReadReplica();
        }
        return preferredReadReplica(leadership, fetchOnlyLeader, clientRack, listener, partition.log(),
                partition.fetchOffset());
    }

    /**
     * Whether this broker may still serve the partition to this fetch (a parked fetch outlives leadership changes):
     * it leads it, or, for a consumer's fetch that may read from a follower, holds a replica of it.
     */
    boolean stillServes(PartitionLog log) {
        return fetchOnlyLeader ? leadership.isLeader(log.topicPartition())
                : leadership.hostsReplica(log.topicPartition());
    }

    /** Whether a consumer asked for committed records only (a follower's fetch reads the whole log anyway). */
    boolean readCommitted() {
        return isolationLevel == READ_COMMITTED && !fromFollower();
    }

    /** Whether the leader's replication throttle holds back this follower's fetch of the partition (KIP-73). */
    boolean throttled(PartitionPlan partition) {
        return fromFollower() && leadership.throttlesFollowerFetch(partition.log().topicPartition(), replicaId);
    }

    /** Whether a follower replica sent this fetch (a replica id of 0 or more), not a consumer. */
    boolean fromFollower() {
        return replicaId >= 0;
    }

    /**
     * Whether the fetch is answered now, without parking: a partition is answered with its DivergingEpoch or a
     * PreferredReadReplica, or a partition the cluster has cannot be read here (not led here, or a leader epoch that
     * does not match), as Kafka's ReplicaManager answers on a read error. A topic or partition the cluster does not
     * know is not one: Kafka's KafkaApis answers those apart and parks the fetch on the others. One walk of the
     * partitions.
     */
    boolean answersAtOnce() {
        for (TopicPlan topic : topics) {
            for (PartitionPlan p : topic.partitions()) {
                if (p.divergingEpoch() != null || p.pointsElsewhere() || p.error() != Errors.NONE
                        && p.error() != Errors.UNKNOWN_TOPIC_OR_PARTITION && p.error() != Errors.UNKNOWN_TOPIC_ID) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * The session's partitions of an incremental fetch, in the order of the plan's partitions (the session's order
     * when the fetch was made), or null: apart from the partitions' parts, so that a fetch without a session carries
     * nothing more per partition than it did before sessions.
     */
    CachedPartition cachedAt(int ordinal) {
        return cached == null ? null : cached[ordinal];
    }

    /** How many partitions the fetch reads, with a log or not. */
    int partitionCount() {
        int count = 0;
        for (TopicPlan topic : topics) {
            count += topic.partitions().size();
        }
        return count;
    }

    /** Every partition that has a log: the keys a parked fetch is watched on. */
    List<PartitionLog> logs() {
        List<PartitionLog> logs = new ArrayList<>();
        for (TopicPlan topic : topics) {
            for (PartitionPlan partition : topic.partitions()) {
                if (partition.log() != null) {
                    logs.add(partition.log());
                }
            }
        }
        return logs;
    }
}
