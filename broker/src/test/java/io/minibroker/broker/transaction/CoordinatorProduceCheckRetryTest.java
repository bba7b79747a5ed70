package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leader asks the coordinator again while an implicit add meets CONCURRENT_TRANSACTIONS, within
 * {@code add.partitions.to.txn.retry.backoff.max.ms}, whichever node answers (the asking is given as a supplier);
 * its backoffs pass on the broker's clock, here a manual one that only the test moves.
 */
class CoordinatorProduceCheckRetryTest {

    private final ManualClock clock = new ManualClock();
    private final BackoffTimer backoffs = new BackoffTimer(BrokerClock.manual(clock));

    @AfterEach
    void close() throws InterruptedException {
        backoffs.close();
    }

    private static final TopicPartition PARTITION = new TopicPartition("orders", 0);
    private static final short IMPLICIT_ADD = 12;
    private static final short VERIFY_ONLY = 11;

    /** Answers each ask with the next of {@code answers}, the last one for ever; counts the asks. */
    private static final class Coordinator implements Supplier<CompletionStage<Map<TopicPartition, Errors>>> {
        final ArrayDeque<Errors> answers;
        final AtomicInteger asked = new AtomicInteger();

        Coordinator(Errors... answers) {
            this.answers = new ArrayDeque<>(List.of(answers));
        }

        @Override
        public synchronized CompletionStage<Map<TopicPartition, Errors>> get() {
            asked.incrementAndGet();
            Errors answer = answers.size() > 1 ? answers.poll() : answers.peek();
            return CompletableFuture.completedFuture(Map.of(PARTITION, answer));
        }
    }

    /** The check's answer as it stands, the backoffs it waits on passing only as the test advances the clock. */
    private CompletableFuture<Map<TopicPartition, Errors>> ask(long backoffMs, long maxMs, Coordinator coordinator,
                                                             short produceVersion) {
        CoordinatorProduceCheck check = new CoordinatorProduceCheck(null, backoffMs, maxMs, backoffs);
        return check.askAgainWhileConcurrent(coordinator, produceVersion).toCompletableFuture();
    }

    private static Map<TopicPartition, Errors> answered(CompletableFuture<Map<TopicPartition, Errors>> answer)
            throws Exception {
        return answer.get(10, TimeUnit.SECONDS);
    }

    @Test
    void anImplicitAddIsAskedAgainAtEachBackoffOfTheBrokerClock() throws Exception {
        Coordinator coordinator = new Coordinator(Errors.CONCURRENT_TRANSACTIONS, Errors.CONCURRENT_TRANSACTIONS,
                Errors.NONE);

        CompletableFuture<Map<TopicPartition, Errors>> answer = ask(20, 100, coordinator, IMPLICIT_ADD);
        assertThat(coordinator.asked).hasValue(1);
        clock.advance(19);
        assertThat(coordinator.asked).as("not before the backoff has passed on the broker's clock").hasValue(1);
        assertThat(answer).isNotDone();
        clock.advance(1);
        assertThat(coordinator.asked).hasValue(2);
        assertThat(answer).isNotDone();
        clock.advance(20);
        assertThat(answered(answer)).containsEntry(PARTITION, Errors.NONE);
        assertThat(coordinator.asked).hasValue(3);
    }

    @Test
    void theAskingStopsWhenTheNextBackoffWouldPassTheMaximum() throws Exception {
        Coordinator coordinator = new Coordinator(Errors.CONCURRENT_TRANSACTIONS);

        CompletableFuture<Map<TopicPartition, Errors>> answer = ask(1, 3, coordinator, IMPLICIT_ADD);
        for (int backoff = 0; backoff < 3; backoff++) {
            assertThat(answer).isNotDone();
            clock.advance(1);
        }
        assertThat(answered(answer)).containsEntry(PARTITION, Errors.CONCURRENT_TRANSACTIONS);
        assertThat(coordinator.asked).as("the first ask and one for each backoff within the maximum").hasValue(4);
        Coordinator never = new Coordinator(Errors.CONCURRENT_TRANSACTIONS);
        close();
        assertThat(answered(ask(20, 0, never, IMPLICIT_ADD))).containsEntry(PARTITION,
                Errors.CONCURRENT_TRANSACTIONS);
        assertThat(never.asked).hasValue(1);
    }

    @Test
    void aVerificationAndOtherErrorsAreAskedOnce() throws Exception {
        Coordinator verifying = new Coordinator(Errors.CONCURRENT_TRANSACTIONS, Errors.NONE);
        assertThat(answered(ask(1, 100, verifying, VERIFY_ONLY))).containsEntry(PARTITION,
                Errors.CONCURRENT_TRANSACTIONS);
        assertThat(verifying.asked).hasValue(1);

        close();
        Coordinator fenced = new Coordinator(Errors.PRODUCER_FENCED, Errors.NONE);
        assertThat(answered(ask(1, 100, fenced, IMPLICIT_ADD))).containsEntry(PARTITION, Errors.PRODUCER_FENCED);
        assertThat(fenced.asked).hasValue(1);
    }

    /** As Kafka's AddPartitionsToTxnManager answers a produce: a fenced producer hears INVALID_PRODUCER_EPOCH. */
    @Test
    void aFencedProducerIsToldItsEpochIsInvalid() {
        assertThat(CoordinatorProduceCheck.forProduce(Errors.PRODUCER_FENCED, IMPLICIT_ADD))
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
        assertThat(CoordinatorProduceCheck.forProduce(Errors.PRODUCER_FENCED, VERIFY_ONLY))
                .isEqualTo(Errors.INVALID_PRODUCER_EPOCH);
    }

    /**
     * As Kafka's ReplicaManager: a TV2 client retries CONCURRENT_TRANSACTIONS itself; an older one is told a
     * retriable NOT_ENOUGH_REPLICAS. Errors Kafka does not map reach the client as they are.
     */
    @Test
    void concurrentTransactionsReachesATv2ClientAndOtherErrorsPassUnmapped() {
        assertThat(CoordinatorProduceCheck.forProduce(Errors.CONCURRENT_TRANSACTIONS, IMPLICIT_ADD))
                .isEqualTo(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(CoordinatorProduceCheck.forProduce(Errors.CONCURRENT_TRANSACTIONS, VERIFY_ONLY))
                .isEqualTo(Errors.NOT_ENOUGH_REPLICAS);
        assertThat(CoordinatorProduceCheck.forProduce(Errors.INVALID_PRODUCER_ID_MAPPING, IMPLICIT_ADD))
                .isEqualTo(Errors.INVALID_PRODUCER_ID_MAPPING);
        assertThat(CoordinatorProduceCheck.forProduce(Errors.INVALID_REQUEST, (short) 9))
                .isEqualTo(Errors.INVALID_REQUEST);
        assertThat(CoordinatorProduceCheck.forProduce(Errors.TRANSACTION_ABORTABLE, (short) 9))
                .isEqualTo(Errors.INVALID_TXN_STATE);
    }
}
