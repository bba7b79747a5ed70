package io.minibroker.broker.group;

import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * OffsetDelete against a commit still being written, as in a cluster, where a write counts only once replicated:
 * a commit written before the tombstone but settled after it must not come back, as it does not on a replay.
 */
class OffsetStoreDeletionTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    /** Appends at once, as a leader does, and settles each write only when the test says so. */
    private final Deque<Runnable> unsettled = new ArrayDeque<>();
    private OffsetStore store;

    @BeforeEach
    void open() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        CoordinatorAppender appendNowSettleLater = (log, batch, guard) -> {
            long offset = log.appendAsCoordinator(batch, 0, guard).firstOffset();
            CompletableFuture<Long> settled = new CompletableFuture<>();
            unsettled.add(() -> settled.complete(offset));
            return settled;
        };
        store = new OffsetStore(new OffsetsTopic(topics, 1, appendNowSettleLater, true, BrokerClock.system()));
    }

    @AfterEach
    void close() throws Exception {
        topics.close();
    }

    @Test
    void aCommitSettledAfterTheTombstoneThatFollowsItStaysDeleted() throws Exception {
        Map<TopicPartition, OffsetStore.CommittedOffset> commit = Map.of(ORDERS_0, new OffsetStore.CommittedOffset(5, -1, ""));
        CompletableFuture<Long> commitWritten = store.write("g", commit, 1L);
        assertThat(store.hasCommit("g", ORDERS_0)).as("pending, not yet shown").isTrue();

        CompletableFuture<Long> tombstoneWritten = store.deleteCommits("g", List.of(ORDERS_0));
        unsettled.removeLast().run(); // the tombstone settles first...
        tombstoneWritten.get();
        unsettled.removeLast().run(); // ...then the commit written before it
        store.apply("g", commit, commitWritten.get(), 1L);

        assertThat(store.all("g")).as("as a replay of the log has it").doesNotContainKey(ORDERS_0);
        Map<TopicPartition, OffsetStore.CommittedOffset> later = Map.of(ORDERS_0, new OffsetStore.CommittedOffset(9, -1, ""));
        CompletableFuture<Long> laterWritten = store.write("g", later, 1L);
        unsettled.removeLast().run();
        store.apply("g", later, laterWritten.get(), 1L);
        assertThat(store.all("g")).as("a commit after the tombstone counts").containsKey(ORDERS_0);
    }

    @Test
    void aCommitSettledBeforeTheTombstoneThatFollowsItIsNotShownEither() throws Exception {
        Map<TopicPartition, OffsetStore.CommittedOffset> commit = Map.of(ORDERS_0, new OffsetStore.CommittedOffset(5, -1, ""));
        CompletableFuture<Long> commitWritten = store.write("g", commit, 1L);
        store.deleteCommits("g", List.of(ORDERS_0));

        unsettled.removeFirst().run(); // the commit settles while the tombstone after it is still unsettled
        store.apply("g", commit, commitWritten.get(), 1L);

        assertThat(store.all("g")).as("the log has the tombstone after it").doesNotContainKey(ORDERS_0);
        assertThat(store.hasCommit("g", ORDERS_0)).isFalse();
    }

    /** Kafka does not expire an offset with a commit pending: neither is the partition offered to expiry. */
    @Test
    void aPartitionWithACommitStillBeingWrittenIsNotOfferedForExpiry() throws Exception {
        Map<TopicPartition, OffsetStore.CommittedOffset> first = Map.of(ORDERS_0, new OffsetStore.CommittedOffset(5, -1, ""));
        CompletableFuture<Long> firstWritten = store.write("g", first, 1L);
        unsettled.removeLast().run();
        store.apply("g", first, firstWritten.get(), 1L);
        assertThat(store.settledCommits("g")).containsExactly(Map.entry(ORDERS_0,
                new OffsetStore.SettledCommit(1L, OffsetStore.CommittedOffset.NO_EXPIRY)));

        store.write("g", Map.of(ORDERS_0, new OffsetStore.CommittedOffset(6, -1, "")), 2L);

        assertThat(store.settledCommits("g")).isEmpty();
        assertThat(store.hasNoCommitsBut("g", List.of(ORDERS_0))).as("the pending commit is not expired").isFalse();
    }
}
