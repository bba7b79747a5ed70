package io.minibroker.broker.fetch.session;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchRequestView.FetchPartition;
import io.minibroker.protocol.message.view.FetchRequestView.FetchTopic;
import io.minibroker.protocol.message.view.FetchRequestView.ForgottenTopic;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * Sorts each Fetch by its session id and epoch (KIP-227), as Kafka's FetchManager: epoch 0 is a full fetch that opens
 * a session, -1 a full fetch without one, either closing the session it names; any other epoch is an incremental fetch
 * of the session named, which must exist (FETCH_SESSION_ID_NOT_FOUND), be at that epoch (INVALID_FETCH_SESSION_EPOCH)
 * and name its topics as the session does, by id from v13 and by name before (FETCH_SESSION_TOPIC_ID_ERROR). An
 * incremental fetch updates the session's partitions with those it names, drops those it forgets, and moves the epoch
 * on; one that leaves the session empty closes it and is served without a session.
 */
public final class FetchManager {

    private static final Logger LOG = LoggerFactory.getLogger(FetchManager.class);
    private static final int SESSIONS_FROM_VERSION = 7;
    private static final int TOPIC_IDS_FROM_VERSION = 13;

    private final FetchSessionCache cache;
    private final BrokerClock clock;

    public FetchManager(FetchSessionCache cache, BrokerClock clock) {
        this.cache = cache;
        this.clock = clock;
    }

    public FetchContext newContext(short version, FetchRequestView request, boolean fromFollower) {
        if (version < SESSIONS_FROM_VERSION) {
            return FetchContext.SESSIONLESS;
        }
        int sessionId = request.sessionId();
        int epoch = request.sessionEpoch();
        boolean usesTopicIds = version >= TOPIC_IDS_FROM_VERSION;
        if (epoch == FetchSession.INITIAL_EPOCH || epoch == FetchSession.FINAL_EPOCH) {
            if (sessionId != FetchSession.INVALID_SESSION_ID) {
                cache.remove(sessionId); // a full fetch naming a session closes it
            }
            return epoch == FetchSession.FINAL_EPOCH ? FetchContext.SESSIONLESS
                    : new FetchContext.Full(this, fromFollower, usesTopicIds, request);
        }
        FetchSessionCacheShard shard = cache.shardOf(sessionId);
        if (shard == null) {
            return new FetchContext.SessionError(Errors.FETCH_SESSION_ID_NOT_FOUND);
        }
        synchronized (shard) {
            FetchSession session = shard.get(sessionId);
            if (session == null) {
                LOG.debug("Fetch session {} not found", sessionId);
                return new FetchContext.SessionError(Errors.FETCH_SESSION_ID_NOT_FOUND);
            }
            synchronized (session) {
                if (session.epoch() != epoch) {
                    LOG.debug("Fetch session {} is at epoch {}, not {}", sessionId, session.epoch(), epoch);
                    return new FetchContext.SessionError(Errors.INVALID_FETCH_SESSION_EPOCH);
                }
                if (session.usesTopicIds() != usesTopicIds) {
                    return new FetchContext.SessionError(Errors.FETCH_SESSION_TOPIC_ID_ERROR);
                }
                update(session, request, usesTopicIds);
                if (session.size() == 0) {
                    shard.remove(session);
                    return FetchContext.SESSIONLESS;
                }
                shard.touch(session, clock.monotonicMs());
                session.epoch(FetchSession.nextEpoch(epoch));
                return new FetchContext.Incremental(session, epoch);
            }
        }
    }

    /** The request's partitions go in, changed or new, then its forgotten ones out, in Kafka's order. */
    private static void update(FetchSession session, FetchRequestView request, boolean usesTopicIds) {
        for (FetchTopic topic : request.topics()) {
            String name = usesTopicIds ? null : topic.topic();
            UUID id = usesTopicIds ? topic.topicId() : null;
            for (FetchPartition partition : topic.partitions()) {
                session.fetch(new SessionPartition(name, id, partition.partition()), partition.fetchOffset(),
                        partition.logStartOffset(), partition.partitionMaxBytes(), partition.currentLeaderEpoch(),
                        partition.lastFetchedEpoch());
            }
        }
        for (ForgottenTopic topic : request.forgottenTopicsData()) {
            String name = usesTopicIds ? null : topic.topic();
            UUID id = usesTopicIds ? topic.topicId() : null;
            for (int partition : topic.partitions()) {
                session.forget(new SessionPartition(name, id, partition));
            }
        }
    }

    FetchSession open(boolean privileged, int size, boolean usesTopicIds,
                      Supplier<Map<SessionPartition, CachedPartition>> partitions) {
        return cache.maybeCreate(clock.monotonicMs(), privileged, size, usesTopicIds, partitions);
    }

    /** A map to fill with a new session's partitions, in the order they were answered. */
    public static Map<SessionPartition, CachedPartition> newPartitionMap(int size) {
        return FetchSession.partitionMap(size);
    }
}
