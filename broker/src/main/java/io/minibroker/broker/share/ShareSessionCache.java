package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;

import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Share sessions (KIP-932), one per group member, as Kafka's ShareSessionCache: the partitions a member fetches
 * and the epoch its next request must carry. A request with epoch 0 opens a session (replacing the member's earlier
 * one), -1 closes it, and any other epoch must be the session's next one: an unknown session is
 * SHARE_SESSION_NOT_FOUND, another epoch INVALID_SHARE_SESSION_EPOCH, as in Kafka. At most
 * {@code group.share.max.share.sessions} sessions are open (SHARE_SESSION_LIMIT_REACHED). A session also ends with
 * the connection that opened it.
 */
public final class ShareSessionCache {

    public static final int INITIAL_EPOCH = 0;
    public static final int FINAL_EPOCH = -1;

    /** A partition in a session, by topic id as the share requests name it. */
    public record TopicIdPartition(UUID topicId, int partition) {
    }

    /** One member's session. Its partitions change only under the session's lock. */
    public static final class ShareSession {
        private final String groupId;
        private final String memberId;
        private final Set<TopicIdPartition> partitions = new LinkedHashSet<>();
        /** The connection that opened the session: it ends with it, as Kafka's ends with its connection id. */
        private final SocketAddress connection;
        private int epoch = 1;

        ShareSession(String groupId, String memberId, SocketAddress connection) {
            this.groupId = groupId;
            this.memberId = memberId;
            this.connection = connection;
        }

        public String groupId() {
            return groupId;
        }

        public String memberId() {
            return memberId;
        }

        public synchronized List<TopicIdPartition> partitions() {
            return new ArrayList<>(partitions);
        }

        synchronized void update(List<TopicIdPartition> added, List<TopicIdPartition> forgotten) {
            partitions.addAll(added);
            forgotten.forEach(partitions::remove);
        }
    }

    /** What a request's epoch leads to: the session to use, or the error to answer with. */
    public record Resolution(ShareSession session, Errors error) {
    }

    private record SessionKey(String groupId, String memberId) {
    }

    private final Map<SessionKey, ShareSession> sessions = new ConcurrentHashMap<>();
    private final int maxSessions;

    public ShareSessionCache(int maxSessions) {
        this.maxSessions = maxSessions;
    }

    /**
     * Resolves a ShareFetch's session: epoch 0 opens a new one with {@code added}, -1 finds the one to close, any
     * other epoch finds the session, checks and advances its epoch and applies {@code added} and {@code forgotten}.
     */
    public synchronized Resolution forFetch(String groupId, String memberId, int epoch, List<TopicIdPartition> added,
                                            List<TopicIdPartition> forgotten, SocketAddress connection) {
        SessionKey key = new SessionKey(groupId, memberId);
        if (epoch == INITIAL_EPOCH) {
            sessions.remove(key);
            if (sessions.size() >= maxSessions) {
                return new Resolution(null, Errors.SHARE_SESSION_LIMIT_REACHED);
            }
            ShareSession session = new ShareSession(groupId, memberId, connection);
            session.update(added, List.of());
            sessions.put(key, session);
            return new Resolution(session, Errors.NONE);
        }
        Resolution found = existing(key, epoch);
        if (found.session() != null && epoch != FINAL_EPOCH) {
            found.session().update(added, forgotten);
        }
        return found;
    }

    /** Resolves a ShareAcknowledge's session: it never opens one (epoch 0 is INVALID_SHARE_SESSION_EPOCH). */
    public synchronized Resolution forAcknowledge(String groupId, String memberId, int epoch) {
        if (epoch == INITIAL_EPOCH) {
            return new Resolution(null, Errors.INVALID_SHARE_SESSION_EPOCH);
        }
        return existing(new SessionKey(groupId, memberId), epoch);
    }

    private Resolution existing(SessionKey key, int epoch) {
        ShareSession session = sessions.get(key);
        if (session == null) {
            return new Resolution(null, Errors.SHARE_SESSION_NOT_FOUND);
        }
        if (epoch == FINAL_EPOCH) {
            return new Resolution(session, Errors.NONE);
        }
        if (epoch != session.epoch) {
            return new Resolution(null, Errors.INVALID_SHARE_SESSION_EPOCH);
        }
        session.epoch = session.epoch == Integer.MAX_VALUE ? 1 : session.epoch + 1;
        return new Resolution(session, Errors.NONE);
    }

    /** Closes {@code session} if it is still the member's (a final-epoch request, after its acknowledgements). */
    public synchronized boolean remove(ShareSession session) {
        return sessions.remove(new SessionKey(session.groupId, session.memberId), session);
    }

    /**
     * Runs {@code drop} if no member of {@code groupId} has a session here, under the lock that opening a session
     * takes: a session opening meanwhile waits for the drop, so it never picks up a share partition about to be
     * dropped (its acquisitions would be made in an object no later fetch sees, and the records delivered again).
     */
    public synchronized void dropIfNoSessions(String groupId, Runnable drop) {
        if (sessions.keySet().stream().noneMatch(key -> key.groupId().equals(groupId))) {
            drop.run();
        }
    }

    /** The connection from {@code connection} closed: the sessions it opened end, and are returned. */
    public synchronized List<ShareSession> closeConnection(SocketAddress connection) {
        List<ShareSession> closed = new ArrayList<>();
        sessions.values().removeIf(session -> {
            boolean ends = connection.equals(session.connection);
            if (ends) {
                closed.add(session);
            }
            return ends;
        });
        return closed;
    }
}
