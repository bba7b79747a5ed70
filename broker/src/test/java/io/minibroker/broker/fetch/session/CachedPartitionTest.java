package io.minibroker.broker.fetch.session;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When an incremental answer names a partition, as Kafka's CachedPartition.maybeUpdateResponseData decides: records,
 * an error, a DivergingEpoch or a preferred read replica always; otherwise only a high watermark or log start offset
 * the fetcher was not told yet. An error forgets the high watermark told, so the partition comes back once it clears.
 */
class CachedPartitionTest {

    private static final SessionPartition KEY = new SessionPartition("t", null, 0);

    /** Told high watermark 10 and log start 0 by the full fetch that opened the session. */
    private final CachedPartition cached = CachedPartition.answered(KEY, 10, -1, 1024, -1, -1, 10, 0);

    @Test
    void nothingNewIsLeftOut() {
        assertThat(cached.mustRespond(false, false, false, false, 10, 0)).isFalse();
    }

    @Test
    void recordsAnErrorADivergenceOrAPreferredReplicaAreAlwaysNamed() {
        assertThat(cached.mustRespond(true, false, false, false, 10, 0)).isTrue();
        assertThat(cached.mustRespond(false, false, true, false, 10, 0)).isTrue();
        assertThat(cached.mustRespond(false, false, false, true, 10, 0)).isTrue();
        assertThat(cached.mustRespond(false, false, false, false, 10, 0)).as("none of them changed what was told")
                .isFalse();
    }

    @Test
    void aMovedHighWatermarkOrLogStartIsNamedOnce() {
        assertThat(cached.mustRespond(false, false, false, false, 12, 0)).isTrue();
        assertThat(cached.mustRespond(false, false, false, false, 12, 0)).isFalse();
        assertThat(cached.mustRespond(false, false, false, false, 12, 5)).isTrue();
        assertThat(cached.mustRespond(false, false, false, false, 12, 5)).isFalse();
    }

    @Test
    void anErrorIsNamedEachTimeAndTheHighWatermarkAgainOnceItClears() {
        assertThat(cached.mustRespond(false, true, false, false, -1, -1)).isTrue();
        assertThat(cached.mustRespond(false, true, false, false, -1, -1)).isTrue();
        assertThat(cached.highWatermark()).isEqualTo(-1);
        assertThat(cached.mustRespond(false, false, false, false, 10, 0)).isTrue();
        assertThat(cached.mustRespond(false, false, false, false, 10, 0)).isFalse();
    }
}
