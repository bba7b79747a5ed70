package io.minibroker.broker.fetch.session;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cache's slots and Kafka's eviction rules (FetchSessionCacheShard.tryEvict), on explicit times: a stale session
 * (unused for {@link FetchSessionCache#EVICTION_MS}) goes for anyone; otherwise a follower's session evicts a consumer's,
 * or an old session with fewer partitions, and a consumer's only an old one with fewer partitions.
 */
class FetchSessionCacheTest {

    private static final long EVICTION_MS = FetchSessionCache.EVICTION_MS;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private static Map<SessionPartition, CachedPartition> partitions(int size) {
        Map<SessionPartition, CachedPartition> partitions = FetchSession.partitionMap(size);
        for (int i = 0; i < size; i++) {
            SessionPartition key = new SessionPartition("t", null, i);
            partitions.put(key, CachedPartition.answered(key, 0, -1, 1024, -1, -1, 0, 0));
        }
        return partitions;
    }

    private static FetchSession create(FetchSessionCache cache, long now, boolean privileged, int size) {
        return cache.maybeCreate(now, privileged, size, false, () -> partitions(size));
    }

    private double evictions() {
        return registry.get("kafka.server.fetchsessioncache.incrementalfetchsessionevictions").counter().count();
    }

    @Test
    void aFullCacheTakesNoNewSessionWhileItsSessionsAreYoungAndUsed() {
        FetchSessionCache cache = new FetchSessionCache(2, 1, registry);
        FetchSession first = create(cache, 0, false, 10);
        FetchSession second = create(cache, 0, false, 5);

        assertThat(first).isNotNull();
        assertThat(second).isNotNull();
        assertThat(first.id()).isPositive().isNotEqualTo(second.id());
        assertThat(create(cache, 10, false, 20)).as("young sessions are not evicted for a consumer's").isNull();
        assertThat(cache.size()).isEqualTo(2);
        assertThat(cache.partitionsCached()).isEqualTo(15);
        assertThat(evictions()).isZero();
    }

    @Test
    void aFollowersSessionEvictsTheSmallestConsumerSessionEvenAYoungOne() {
        FetchSessionCache cache = new FetchSessionCache(2, 1, registry);
        FetchSession large = create(cache, 0, false, 10);
        FetchSession small = create(cache, 0, false, 5);

        FetchSession follower = create(cache, 10, true, 1);

        assertThat(follower).isNotNull();
        assertThat(cache.shardOf(small.id()).get(small.id())).isNull();
        assertThat(cache.shardOf(large.id()).get(large.id())).isSameAs(large);
        assertThat(evictions()).isEqualTo(1);
        assertThat(cache.partitionsCached()).isEqualTo(11);
    }

    @Test
    void aYoungFollowerSessionIsEvictedByNobodyButAStaleOneByAnybody() {
        FetchSessionCache cache = new FetchSessionCache(1, 1, registry);
        FetchSession follower = create(cache, 0, true, 5);

        assertThat(create(cache, 10, true, 50)).as("young and privileged: kept").isNull();
        assertThat(create(cache, 10, false, 50)).isNull();
        assertThat(create(cache, EVICTION_MS, false, 1)).as("unused for exactly the eviction time: kept").isNull();

        FetchSession consumer = create(cache, EVICTION_MS + 1, false, 1);

        assertThat(consumer).as("unused for longer: stale").isNotNull();
        assertThat(cache.shardOf(follower.id()).get(follower.id())).isNull();
        assertThat(evictions()).isEqualTo(1);
    }

    @Test
    void anOldSessionInUseGivesWayOnlyToOneWithMorePartitions() {
        FetchSessionCache cache = new FetchSessionCache(1, 1, registry);
        FetchSession old = create(cache, 0, false, 5);
        FetchSessionCacheShard shard = cache.shardOf(old.id());
        shard.touch(old, EVICTION_MS);
        shard.touch(old, EVICTION_MS + 10); // used, so not stale, and now older than the eviction time

        assertThat(create(cache, EVICTION_MS + 20, false, 4)).isNull();
        assertThat(create(cache, EVICTION_MS + 20, false, 5)).as("a tie keeps the session there").isNull();
        FetchSession larger = create(cache, EVICTION_MS + 20, false, 6);

        assertThat(larger).isNotNull();
        assertThat(shard.get(old.id())).isNull();
        assertThat(evictions()).isEqualTo(1);
    }

    @Test
    void aRemovedSessionFreesItsSlotAndItsPartitions() {
        FetchSessionCache cache = new FetchSessionCache(1, 1, registry);
        FetchSession session = create(cache, 0, false, 3);

        cache.remove(session.id());

        assertThat(cache.size()).isZero();
        assertThat(cache.partitionsCached()).isZero();
        assertThat(create(cache, 1, false, 2)).isNotNull();
        assertThat(evictions()).isZero();
    }

    @Test
    void slotsAreDividedAmongKafkasEightShardsAndSessionsGivenToThemInTurn() {
        FetchSessionCache cache = new FetchSessionCache(16, registry);
        Set<FetchSessionCacheShard> shards = new HashSet<>();
        for (int i = 0; i < 16; i++) {
            FetchSession session = create(cache, 0, false, 1);
            assertThat(session).isNotNull();
            shards.add(cache.shardOf(session.id()));
        }

        assertThat(shards).hasSize(FetchSessionCache.SHARDS);
        assertThat(create(cache, 0, false, 1)).as("two slots a shard, all taken").isNull();
        assertThat(registry.get("kafka.server.fetchsessioncache.numincrementalfetchsessions").gauge().value())
                .isEqualTo(16);
        assertThat(registry.get("kafka.server.fetchsessioncache.numincrementalfetchpartitionscached").gauge().value())
                .isEqualTo(16);
    }

    @Test
    void fewerSlotsThanShardsGiveNoSessionAsInKafka() {
        FetchSessionCache cache = new FetchSessionCache(7, registry);

        assertThat(create(cache, 0, true, 1)).isNull();
    }

    @Test
    void idsNoShardGivesFindNone() {
        FetchSessionCache cache = new FetchSessionCache(16, registry);

        assertThat(cache.shardOf(0)).isNull();
        assertThat(cache.shardOf(-5)).isNull();
        assertThat(cache.shardOf(Integer.MAX_VALUE)).isNull();
    }
}
