package io.minibroker.broker.fetch.session;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.purgatory.time.ManualClock;

/** Fetch session managers for handler tests. */
public final class TestFetchSessions {

    private TestFetchSessions() {
    }

    /** A manager with Kafka's default cache, on {@code clock}. */
    public static FetchManager manager(ManualClock clock) {
        return manager(clock, BrokerConfig.MAX_INCREMENTAL_FETCH_SESSION_CACHE_SLOTS.defaultValue(),
                new SimpleMeterRegistry());
    }

    /** A manager with a cache of {@code slots} metered in {@code registry}, on {@code clock}. */
    public static FetchManager manager(ManualClock clock, int slots, MeterRegistry registry) {
        return new FetchManager(new FetchSessionCache(slots, registry), BrokerClock.manual(clock));
    }
}
