package io.minibroker.broker.replica;

import io.minibroker.broker.fetch.session.FetchSession;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchRequestView.FetchPartition;
import io.minibroker.protocol.message.view.FetchRequestView.FetchTopic;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A follower's incremental fetch session (KIP-227) with one leader, as Kafka's FetchSessionHandler keeps it for its
 * replica fetcher: the first fetch is full at epoch 0 and opens the session; each later one names only the partitions
 * whose fetch (offset, log start, leader epoch, last fetched epoch, bytes) changed since it was last sent, forgets
 * those no longer fetched, and carries the next epoch; the leader answers only the partitions that changed. A session
 * error, a failed fetch, or a leader that gave no session start over with a full fetch at epoch 0 (which also closes
 * the session it names). Used by one fetcher thread only.
 */
final class LeaderFetchSession {

    /** How a session names a partition: by topic id and index (a new leader epoch is the same partition). */
    private record Key(UUID topicId, int partition) {
    }

    /** What the session holds for a partition: what was last sent for it. */
    private record Sent(long fetchOffset, long logStartOffset, int leaderEpoch, int lastFetchedEpoch, int maxBytes) {
    }

    private int sessionId = FetchSession.INVALID_SESSION_ID;
    private int epoch = FetchSession.INITIAL_EPOCH;
    private final Map<Key, Sent> sent = new LinkedHashMap<>();

    /**
     * Writes the session's part of the next fetch of {@code partitions} into {@code request}: its id and epoch, the
     * partitions to name (all of them when full) and those to forget.
     */
    void build(FetchRequestView request, List<FollowedPartition> partitions, int maxBytes) {
        request.sessionId(sessionId).sessionEpoch(epoch);
        boolean full = epoch == FetchSession.INITIAL_EPOCH;
        if (full) {
            sent.clear();
        }
        Map<Key, Sent> now = new LinkedHashMap<>();
        Map<UUID, FetchTopic> topics = new HashMap<>();
        for (FollowedPartition partition : partitions) {
            Key key = new Key(partition.topicId(), partition.log().topicPartition().partition());
            Sent fetch = new Sent(partition.log().logEndOffset(), partition.log().logStartOffset(),
                    partition.leaderEpoch(), partition.log().latestEpoch(), maxBytes);
            now.put(key, fetch);
            if (full || !fetch.equals(sent.get(key))) {
                FetchPartition named = topics.computeIfAbsent(key.topicId(), id -> request.addTopic().topicId(id))
                        .addPartition();
                named.partition(key.partition())
                        .currentLeaderEpoch(fetch.leaderEpoch())
                        .lastFetchedEpoch(fetch.lastFetchedEpoch())
                        .fetchOffset(fetch.fetchOffset())
                        .logStartOffset(fetch.logStartOffset())
                        .partitionMaxBytes(fetch.maxBytes());
            }
        }
        if (!full) {
            Map<UUID, List<Integer>> forgotten = new LinkedHashMap<>();
            for (Iterator<Key> keys = sent.keySet().iterator(); keys.hasNext(); ) {
                Key key = keys.next();
                if (!now.containsKey(key)) {
                    forgotten.computeIfAbsent(key.topicId(), id -> new ArrayList<>()).add(key.partition());
                    keys.remove();
                }
            }
            forgotten.forEach((id, indexes) -> request.addForgottenTopicsData().topicId(id).partitions(indexes));
        }
        sent.putAll(now);
    }

    /**
     * The leader answered the fetch built last with {@code error} at the top level and {@code answeredSessionId}:
     * whether its partitions may be taken. A session error is not the fetch's failure: the next fetch is full.
     */
    boolean answered(Errors error, int answeredSessionId) {
        if (error != Errors.NONE) {
            failed();
            return false;
        }
        if (epoch == FetchSession.INITIAL_EPOCH) {
            sessionId = answeredSessionId;
            epoch = sessionId == FetchSession.INVALID_SESSION_ID ? FetchSession.INITIAL_EPOCH
                    : FetchSession.nextEpoch(FetchSession.INITIAL_EPOCH);
        } else {
            epoch = FetchSession.nextEpoch(epoch);
        }
        return true;
    }

    /** The fetch got no answer, or a refusal: start over, closing the session at the leader if it still holds it. */
    void failed() {
        epoch = FetchSession.INITIAL_EPOCH;
        sent.clear();
    }

    /** Whether {@code error} is about the session rather than the fetch: mended by the next full fetch at once. */
    static boolean isSessionError(Errors error) {
        return error == Errors.FETCH_SESSION_ID_NOT_FOUND || error == Errors.INVALID_FETCH_SESSION_EPOCH
                || error == Errors.FETCH_SESSION_TOPIC_ID_ERROR;
    }
}
