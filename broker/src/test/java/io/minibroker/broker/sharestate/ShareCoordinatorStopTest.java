package io.minibroker.broker.sharestate;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.server.Eventually;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share coordinator's stop: the writes queued before it are appended and answered, one asked for after it and
 * one whose append completes after it, and those still queued when it stops waiting are answered
 * COORDINATOR_NOT_AVAILABLE; none is thrown at its caller or left unanswered.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ShareCoordinatorStopTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    /** Appends as a single node does, unless a test holds it. */
    private volatile CoordinatorAppender appender = CoordinatorAppender.SINGLE_NODE;
    private ShareCoordinator coordinator;
    private UUID data;

    @BeforeEach
    void start() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        // The share partitions' data topic: the coordinator answers UNKNOWN_TOPIC_OR_PARTITION for one it lacks.
        topics.create("data", 10, 1, Map.of(), false);
        data = topics.get("data").orElseThrow().id();
        coordinator = new ShareCoordinator(topics, PartitionLeadership.SINGLE_NODE,
                (log, batch, guard) -> appender.append(log, batch, guard), BrokerClock.manual(new ManualClock()), true,
                Long.MAX_VALUE, "share-coordinator-stop-test");
        for (int partition = 0; partition < 10; partition++) { // a state is written only once initialized, as Kafka's
            assertThat(coordinator.initialize(new SharePartitionKey("g", data, partition), 0, -1).get())
                    .isEqualTo(Errors.NONE);
        }
    }

    @AfterEach
    void stop() throws Exception {
        coordinator.close();
        topics.close();
    }

    private CompletableFuture<Errors> write(int partition) {
        return coordinator.write(new SharePartitionKey("g", data, partition),
                new ShareStateSnapshot(partition, List.of()), 0, 0, -1).thenApply(ShareCoordinator.WriteResult::error);
    }

    @Test
    void writesQueuedBeforeTheStopAreAppendedAndAnswered() throws Exception {
        assertThat(write(0).get()).as("the topic made, the partition loaded").isEqualTo(Errors.NONE);
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        appender = (log, batch, guard) -> {
            entered.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return CoordinatorAppender.SINGLE_NODE.append(log, batch);
        };
        CompletableFuture<Errors> held = write(1);
        entered.await(); // the coordinator's thread is in an append: what follows queues behind it
        List<CompletableFuture<Errors>> queued = new ArrayList<>();
        for (int i = 2; i < 5; i++) {
            queued.add(write(i));
        }
        CompletableFuture<Void> closing = CompletableFuture.runAsync(coordinator::close);
        Eventually.await(() -> write(9).getNow(null) == Errors.COORDINATOR_NOT_AVAILABLE, "the stop refusing work");
        assertThat(closing).as("waiting for the queued work").isNotDone();

        release.countDown();
        closing.get();
        assertThat(held.get()).isEqualTo(Errors.NONE);
        for (CompletableFuture<Errors> write : queued) {
            assertThat(write.get()).isEqualTo(Errors.NONE);
        }
    }

    @Test
    void workTheStopDoesNotWaitForIsAnsweredCoordinatorNotAvailable() throws Exception {
        assertThat(write(0).get()).isEqualTo(Errors.NONE);
        CountDownLatch entered = new CountDownLatch(1);
        appender = (log, batch, guard) -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await(); // an append that never ends, until the stop interrupts it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new CompletableFuture<>();
        };
        CompletableFuture<Errors> held = write(1);
        entered.await();
        CompletableFuture<Errors> queued = write(2);

        coordinator.close(0);
        assertThat(held).isCompletedWithValue(Errors.COORDINATOR_NOT_AVAILABLE);
        assertThat(queued).isCompletedWithValue(Errors.COORDINATOR_NOT_AVAILABLE);
    }

    @Test
    void aWriteAskedForAfterTheStopIsAnsweredNotThrown() throws Exception {
        coordinator.close();
        assertThat(write(0)).isCompletedWithValue(Errors.COORDINATOR_NOT_AVAILABLE);
        ShareCoordinator.ReadResult read = coordinator.read(new SharePartitionKey("g", data, 0), 0).get();
        assertThat(List.of(read.error(), read.message())).as("as Kafka's inactive share coordinator answers")
                .containsExactly(Errors.COORDINATOR_NOT_AVAILABLE, "Share coordinator is not available.");
    }

    /**
     * A write whose append fails is answered as Kafka's share coordinator answers a failed operation: the error
     * mapped as for the other coordinators' writes, "Unable to write share group state: " and the failure's message.
     */
    @Test
    void aFailedAppendIsAnsweredWithKafkasMessage() throws Exception {
        appender = (log, batch, guard) -> CompletableFuture.failedFuture(
                new LogException(Errors.NOT_ENOUGH_REPLICAS, "1 in sync, 2 wanted"));
        ShareCoordinator.WriteResult written = coordinator.write(new SharePartitionKey("g", data, 0),
                new ShareStateSnapshot(0, List.of()), 0, 0, -1).get();
        assertThat(List.of(written.error(), written.message())).containsExactly(Errors.COORDINATOR_NOT_AVAILABLE,
                "Unable to write share group state: Messages are rejected since there are fewer in-sync replicas"
                        + " than required.");
    }

    @Test
    void aWriteWhoseAppendCountsAfterTheStopIsAnswered() throws Exception {
        assertThat(write(0).get()).isEqualTo(Errors.NONE);
        CompletableFuture<Long> replicated = new CompletableFuture<>();
        CompletableFuture<Boolean> appended = new CompletableFuture<>();
        appender = (log, batch, guard) -> {
            CoordinatorAppender.SINGLE_NODE.append(log, batch);
            appended.complete(true);
            return replicated; // as a cluster's append, counting once followers have it
        };
        CompletableFuture<Errors> write = write(1);
        appended.get();
        coordinator.close();
        assertThat(write).isNotDone();

        replicated.complete(1L);
        assertThat(write.get()).isEqualTo(Errors.COORDINATOR_NOT_AVAILABLE);
    }
}
