package io.minibroker.broker.fetch.session;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The broker's fetch sessions, in {@value #SHARDS} shards as Kafka 4.3's: {@code max.incremental.fetch.session.cache.slots}
 * divided evenly among them (so fewer than {@value #SHARDS} slots give no session at all, as in Kafka), new sessions
 * given to the shards in turn, each shard with its own range of ids and its own evictions (a session evicts only within
 * its shard). Kafka shards the cache so that its request threads do not all wait on one lock; the event loops here are
 * that many threads too.
 *
 * <p>Its meters are Kafka's {@code kafka.server:type=FetchSessionCache} ones: NumIncrementalFetchSessions,
 * NumIncrementalFetchPartitionsCached and IncrementalFetchSessionEvictionsPerSec.
 */
public final class FetchSessionCache {

    /** Kafka's KafkaBroker.NumFetchSessionCacheShards. */
    static final int SHARDS = 8;
    /**
     * Kafka's MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS: how long a session is left unused before any new one may evict
     * it, and how old it must be before a consumer's new session may evict it for having fewer partitions.
     */
    public static final long EVICTION_MS = 120_000;

    private final FetchSessionCacheShard[] shards;
    private final int idRange;
    private final AtomicInteger nextShard = new AtomicInteger();

    public FetchSessionCache(int slots, MeterRegistry registry) {
        this(slots, SHARDS, registry);
    }

    /** A cache of {@code shardCount} shards: tests take one, to see every eviction among all sessions. */
    FetchSessionCache(int slots, int shardCount, MeterRegistry registry) {
        Counter evictions = Counter.builder("kafka.server.fetchsessioncache.incrementalfetchsessionevictions")
                .description("Fetch sessions evicted for new ones").register(registry);
        idRange = Integer.MAX_VALUE / shardCount;
        shards = new FetchSessionCacheShard[shardCount];
        for (int i = 0; i < shardCount; i++) {
            shards[i] = new FetchSessionCacheShard(slots / shardCount, EVICTION_MS, idRange, i, evictions::increment);
        }
        Gauge.builder("kafka.server.fetchsessioncache.numincrementalfetchsessions", this, FetchSessionCache::size)
                .description("Incremental fetch sessions cached").register(registry);
        Gauge.builder("kafka.server.fetchsessioncache.numincrementalfetchpartitionscached", this,
                        FetchSessionCache::partitionsCached)
                .description("Partitions of the incremental fetch sessions cached").register(registry);
    }

    /** The shard that gave {@code sessionId}, or null for an id no shard gives (0, negative). */
    FetchSessionCacheShard shardOf(int sessionId) {
        if (sessionId <= 0) {
            return null;
        }
        int shard = sessionId / idRange;
        return shard < shards.length ? shards[shard] : null;
    }

    /** A new session in the next shard in turn, or null when that shard has no slot and evicts none for it. */
    FetchSession maybeCreate(long now, boolean privileged, int size, boolean usesTopicIds,
                             Supplier<Map<SessionPartition, CachedPartition>> partitions) {
        FetchSessionCacheShard shard = shards[Math.floorMod(nextShard.getAndIncrement(), shards.length)];
        return shard.maybeCreate(now, privileged, size, usesTopicIds, partitions);
    }

    void remove(int sessionId) {
        FetchSessionCacheShard shard = shardOf(sessionId);
        if (shard != null) {
            shard.remove(sessionId);
        }
    }

    public int size() {
        int size = 0;
        for (FetchSessionCacheShard shard : shards) {
            size += shard.size();
        }
        return size;
    }

    public long partitionsCached() {
        long partitions = 0;
        for (FetchSessionCacheShard shard : shards) {
            partitions += shard.partitionsCached();
        }
        return partitions;
    }
}
