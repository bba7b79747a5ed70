package io.minibroker.broker.fetch.session;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An incremental fetch session (KIP-227): the partitions a fetcher fetches, in the order they are read, and the epoch
 * its next request must carry. Its partitions and epoch are read and changed under its own lock; the cache's shard
 * lock, when both are taken, first (Kafka's order).
 */
public final class FetchSession {

    /** The epoch of a full fetch that opens a session. */
    public static final int INITIAL_EPOCH = 0;
    /** The epoch of a full fetch that asks for no session (and closes the one it names). */
    public static final int FINAL_EPOCH = -1;
    /** The session id of no session. */
    public static final int INVALID_SESSION_ID = 0;

    private final int id;
    private final boolean privileged;
    private final boolean usesTopicIds;
    private final long creationMs;
    private final Map<SessionPartition, CachedPartition> partitions;
    private long lastUsedMs;
    private int epoch;
    /** The size the shard last filed this session under, -1 while it is not in the shard. */
    private int cachedSize = -1;

    FetchSession(int id, boolean privileged, boolean usesTopicIds, long creationMs,
                 Map<SessionPartition, CachedPartition> partitions) {
        this.id = id;
        this.privileged = privileged;
        this.usesTopicIds = usesTopicIds;
        this.creationMs = creationMs;
        this.lastUsedMs = creationMs;
        this.partitions = partitions;
        this.epoch = nextEpoch(INITIAL_EPOCH);
    }

    /** The epoch after {@code epoch}, as Kafka's FetchMetadata.nextEpoch: past the largest int back to 1. */
    public static int nextEpoch(int epoch) {
        if (epoch < 0) {
            return FINAL_EPOCH;
        }
        return epoch == Integer.MAX_VALUE ? 1 : epoch + 1;
    }

    public int id() {
        return id;
    }

    boolean privileged() {
        return privileged;
    }

    boolean usesTopicIds() {
        return usesTopicIds;
    }

    long creationMs() {
        return creationMs;
    }

    synchronized long lastUsedMs() {
        return lastUsedMs;
    }

    synchronized void lastUsedMs(long now) {
        lastUsedMs = now;
    }

    synchronized int epoch() {
        return epoch;
    }

    synchronized void epoch(int epoch) {
        this.epoch = epoch;
    }

    /**
     * Whether the answer to the request that carried {@code requestEpoch} may still be made: no later request moved
     * the epoch on meanwhile (Kafka answers that one INVALID_FETCH_SESSION_EPOCH, "possible duplicate request").
     */
    public synchronized boolean answers(int requestEpoch) {
        return epoch == nextEpoch(requestEpoch);
    }

    synchronized int cachedSize() {
        return cachedSize;
    }

    synchronized void cachedSize(int size) {
        cachedSize = size;
    }

    public synchronized int size() {
        return partitions.size();
    }

    /** The partitions in the order they are read; iterate under this session's lock. */
    public Collection<CachedPartition> partitions() {
        return partitions.values();
    }

    /** Records the request's parameters of a partition it names, adding it to the session if new. */
    synchronized void fetch(SessionPartition key, long fetchOffset, long logStartOffset, int maxBytes,
                            int currentLeaderEpoch, int lastFetchedEpoch) {
        CachedPartition cached = partitions.get(key);
        if (cached == null) {
            partitions.put(key, new CachedPartition(key, fetchOffset, logStartOffset, maxBytes, currentLeaderEpoch,
                    lastFetchedEpoch));
        } else {
            cached.update(fetchOffset, logStartOffset, maxBytes, currentLeaderEpoch, lastFetchedEpoch);
        }
    }

    synchronized void forget(SessionPartition key) {
        partitions.remove(key);
    }

    /**
     * A partition just answered with records goes to the end of the order, as in Kafka, so that the next fetches read
     * the others first and no partition's backlog starves the rest of a bounded answer.
     */
    public synchronized void readLast(CachedPartition partition) {
        partitions.remove(partition.key());
        partitions.put(partition.key(), partition);
    }

    static Map<SessionPartition, CachedPartition> partitionMap(int size) {
        return new LinkedHashMap<>(Math.max(16, (int) (size / 0.75f) + 1));
    }

    @Override
    public synchronized String toString() {
        return "FetchSession(id=" + id + ", privileged=" + privileged + ", partitions=" + partitions.size()
                + ", usesTopicIds=" + usesTopicIds + ", epoch=" + epoch + ")";
    }
}
