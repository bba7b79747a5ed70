package io.minibroker.broker.fetch.session;

/**
 * A partition of a fetch session (KIP-227): what the fetcher last asked for it, which an incremental fetch that leaves
 * the partition out goes on asking, and what the fetcher was last told of it, which decides whether an incremental
 * answer must name it again. Read and changed only under its session's lock.
 */
public final class CachedPartition {

    private final SessionPartition key;
    private long fetchOffset;
    /** The fetcher's own log start (a follower's; -1 from a consumer), not this log's. */
    private long fetcherLogStartOffset;
    private int maxBytes;
    private int currentLeaderEpoch;
    private int lastFetchedEpoch;
    /** -1 until told, and again after an error, so that the partition is named once the error clears. */
    private long highWatermark = -1;
    private long localLogStartOffset = -1;

    CachedPartition(SessionPartition key, long fetchOffset, long fetcherLogStartOffset, int maxBytes,
                    int currentLeaderEpoch, int lastFetchedEpoch) {
        this.key = key;
        update(fetchOffset, fetcherLogStartOffset, maxBytes, currentLeaderEpoch, lastFetchedEpoch);
    }

    /** A partition of a new session, with what its full fetch was answered. */
    public static CachedPartition answered(SessionPartition key, long fetchOffset, long fetcherLogStartOffset,
                                           int maxBytes, int currentLeaderEpoch, int lastFetchedEpoch,
                                           long highWatermark, long localLogStartOffset) {
        CachedPartition cached = new CachedPartition(key, fetchOffset, fetcherLogStartOffset, maxBytes,
                currentLeaderEpoch, lastFetchedEpoch);
        cached.highWatermark = highWatermark;
        cached.localLogStartOffset = localLogStartOffset;
        return cached;
    }

    void update(long fetchOffset, long fetcherLogStartOffset, int maxBytes, int currentLeaderEpoch,
                int lastFetchedEpoch) {
        this.fetchOffset = fetchOffset;
        this.fetcherLogStartOffset = fetcherLogStartOffset;
        this.maxBytes = maxBytes;
        this.currentLeaderEpoch = currentLeaderEpoch;
        this.lastFetchedEpoch = lastFetchedEpoch;
    }

    /**
     * Whether an incremental answer names this partition, as Kafka's CachedPartition.maybeUpdateResponseData decides:
     * when it carries records, an error, a DivergingEpoch or a preferred read replica, or its high watermark or log
     * start offset moved since the fetcher was last told them; what it is told is remembered. The last stable offset
     * is not compared, as Kafka does not: it moves with a transaction marker, which moves the high watermark too.
     */
    public boolean mustRespond(boolean hasRecords, boolean hasError, boolean diverging, boolean preferredReplica,
                               long highWatermark, long logStartOffset) {
        boolean must = hasRecords || hasError || diverging || preferredReplica;
        if (this.highWatermark != highWatermark) {
            this.highWatermark = highWatermark;
            must = true;
        }
        if (localLogStartOffset != logStartOffset) {
            localLogStartOffset = logStartOffset;
            must = true;
        }
        if (hasError) {
            this.highWatermark = -1;
        }
        return must;
    }

    public SessionPartition key() {
        return key;
    }

    public long fetchOffset() {
        return fetchOffset;
    }

    public long fetcherLogStartOffset() {
        return fetcherLogStartOffset;
    }

    public int maxBytes() {
        return maxBytes;
    }

    public int currentLeaderEpoch() {
        return currentLeaderEpoch;
    }

    public int lastFetchedEpoch() {
        return lastFetchedEpoch;
    }

    long highWatermark() {
        return highWatermark;
    }
}
