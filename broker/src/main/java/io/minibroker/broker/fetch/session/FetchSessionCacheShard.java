package io.minibroker.broker.fetch.session;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One shard of the fetch session cache: at most {@code maxEntries} sessions, with ids in its own range, and Kafka's
 * eviction rules among them (Kafka's FetchSessionCacheShard). A new session takes a free slot; when there is none it
 * may evict, in this order:
 * <ol>
 *   <li>the least recently used session, when it has not been used for {@code evictionMs} (stale), whoever asks;</li>
 *   <li>else the least valuable evictable one, when the new session is worth more: a follower's (privileged) session is
 *       worth more than a consumer's, then more partitions more. A session is evictable by a follower's once it is a
 *       consumer's or older than {@code evictionMs}, and by a consumer's only once older than {@code evictionMs}
 *       (a young session is left to prove itself).</li>
 * </ol>
 * Thread-safe: every method holds this shard's lock, and takes a session's lock inside it, never the other way.
 */
final class FetchSessionCacheShard {

    private static final Logger LOG = LoggerFactory.getLogger(FetchSessionCacheShard.class);

    /** Older use first, then lower id. */
    private static final Comparator<FetchSession> BY_LAST_USE =
            Comparator.<FetchSession>comparingLong(FetchSession::lastUsedMs).thenComparingInt(FetchSession::id);
    /** Consumers' before followers', then fewer partitions, then lower id. */
    private static final Comparator<FetchSession> BY_VALUE = Comparator.<FetchSession, Boolean>comparing(FetchSession::privileged)
            .thenComparingInt(FetchSession::cachedSize).thenComparingInt(FetchSession::id);

    private final int maxEntries;
    private final long evictionMs;
    private final int firstId;
    private final int idsEnd;
    private final Runnable onEviction;
    private final Map<Integer, FetchSession> sessions = new HashMap<>();
    // Kept as sorted sets keyed by the session's own fields, so a session must leave them before those fields change.
    private final TreeMap<FetchSession, FetchSession> byLastUse = new TreeMap<>(BY_LAST_USE);
    private final TreeMap<FetchSession, FetchSession> evictableByAll = new TreeMap<>(BY_VALUE);
    private final TreeMap<FetchSession, FetchSession> evictableByPrivileged = new TreeMap<>(BY_VALUE);
    private long partitionsCached;

    /** Ids from {@code max(1, shard * idRange)} up to {@code (shard + 1) * idRange}, exclusive, as Kafka's. */
    FetchSessionCacheShard(int maxEntries, long evictionMs, int idRange, int shard, Runnable onEviction) {
        this.maxEntries = maxEntries;
        this.evictionMs = evictionMs;
        this.firstId = Math.max(1, shard * idRange);
        this.idsEnd = (shard + 1) * idRange;
        this.onEviction = onEviction;
    }

    synchronized FetchSession get(int sessionId) {
        return sessions.get(sessionId);
    }

    synchronized int size() {
        return sessions.size();
    }

    synchronized long partitionsCached() {
        return partitionsCached;
    }

    /**
     * A new session of {@code size} partitions if there is a slot or one can be evicted for it (the partitions made only
     * then), else null: the fetcher is answered without a session and goes on with full fetches.
     */
    synchronized FetchSession maybeCreate(long now, boolean privileged, int size, boolean usesTopicIds,
                                          Supplier<Map<SessionPartition, CachedPartition>> partitions) {
        if (sessions.size() >= maxEntries && !tryEvict(privileged, size, now)) {
            LOG.debug("No fetch session created for privileged={}, size={}", privileged, size);
            return null;
        }
        FetchSession session = new FetchSession(newSessionId(), privileged, usesTopicIds, now, partitions.get());
        sessions.put(session.id(), session);
        touch(session, now);
        LOG.debug("Created {}", session);
        return session;
    }

    private int newSessionId() {
        int id;
        do {
            id = ThreadLocalRandom.current().nextInt(firstId, idsEnd);
        } while (sessions.containsKey(id));
        return id;
    }

    private boolean tryEvict(boolean privileged, int size, long now) {
        Map.Entry<FetchSession, FetchSession> oldest = byLastUse.firstEntry();
        if (oldest == null) {
            return false;
        }
        FetchSession victim;
        if (now - oldest.getKey().lastUsedMs() > evictionMs) {
            victim = oldest.getKey();
        } else {
            Map.Entry<FetchSession, FetchSession> least =
                    (privileged ? evictableByPrivileged : evictableByAll).firstEntry();
            if (least == null || !worthMore(privileged, size, least.getKey())) {
                return false;
            }
            victim = least.getKey();
        }
        LOG.debug("Evicting {} for a new session of privileged={}, size={}", victim, privileged, size);
        remove(victim);
        onEviction.run();
        return true;
    }

    /**
     * Kafka's comparison of a would-be session with an evictable one: a follower's beats a consumer's, then more
     * partitions beat fewer; a tie keeps the session there (Kafka's would-be key has id 0, below any session's).
     */
    private static boolean worthMore(boolean privileged, int size, FetchSession evictable) {
        if (privileged != evictable.privileged()) {
            return privileged;
        }
        return size > evictable.cachedSize();
    }

    synchronized void remove(int sessionId) {
        FetchSession session = sessions.get(sessionId);
        if (session != null) {
            remove(session);
        }
    }

    synchronized void remove(FetchSession session) {
        if (sessions.remove(session.id()) == null) {
            return;
        }
        unfile(session);
        partitionsCached -= session.cachedSize();
        session.cachedSize(-1);
    }

    /** Files the session anew after a use at {@code now}: its last use and its size, maybe changed, are its keys. */
    synchronized void touch(FetchSession session, long now) {
        if (session.cachedSize() != -1) {
            unfile(session);
            partitionsCached -= session.cachedSize();
        }
        session.lastUsedMs(now);
        session.cachedSize(session.size());
        partitionsCached += session.cachedSize();
        byLastUse.put(session, session);
        boolean old = now - session.creationMs() > evictionMs;
        if (!session.privileged() || old) {
            evictableByPrivileged.put(session, session);
        }
        if (old) {
            evictableByAll.put(session, session);
        }
    }

    private void unfile(FetchSession session) {
        byLastUse.remove(session);
        evictableByAll.remove(session);
        evictableByPrivileged.remove(session);
    }
}
