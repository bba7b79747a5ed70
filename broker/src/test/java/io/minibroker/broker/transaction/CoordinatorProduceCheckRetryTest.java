package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leader asks the coordinator again while an implicit add meets CONCURRENT_TRANSACTIONS, within
 * {@code add.partitions.to.txn.retry.backoff.max.ms}, whichever node answers (the asking is given as a supplier).
 */
class CoordinatorProduceCheckRetryTest {

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

    private static Map<TopicPartition, Errors> ask(long backoffMs, long maxMs, Coordinator coordinator,
                                                   short produceVersion) {
        return new CoordinatorProduceCheck(null, backoffMs, maxMs).askAgainWhileConcurrent(coordinator,
                produceVersion).toCompletableFuture().join();
    }

    @Test
    void anImplicitAddIsAskedAgainUntilTheTransactionIsNoLongerCompleting() {
        Coordinator coordinator = new Coordinator(Errors.CONCURRENT_TRANSACTIONS, Errors.CONCURRENT_TRANSACTIONS,
                Errors.NONE);

        assertThat(ask(1, 100, coordinator, IMPLICIT_ADD)).containsEntry(PARTITION, Errors.NONE);
        assertThat(coordinator.asked).hasValue(3);
    }

    @Test
    void theAskingStopsWhenTheNextBackoffWouldPassTheMaximum() {
        Coordinator coordinator = new Coordinator(Errors.CONCURRENT_TRANSACTIONS);

        assertThat(ask(1, 3, coordinator, IMPLICIT_ADD)).containsEntry(PARTITION, Errors.CONCURRENT_TRANSACTIONS);
        assertThat(coordinator.asked).as("the first ask and one for each backoff within the maximum").hasValue(4);
        Coordinator never = new Coordinator(Errors.CONCURRENT_TRANSACTIONS);
        assertThat(ask(20, 0, never, IMPLICIT_ADD)).containsEntry(PARTITION, Errors.CONCURRENT_TRANSACTIONS);
        assertThat(never.asked).hasValue(1);
    }

    @Test
    void aVerificationAndOtherErrorsAreAskedOnce() {
        Coordinator verifying = new Coordinator(Errors.CONCURRENT_TRANSACTIONS, Errors.NONE);
        assertThat(ask(1, 100, verifying, VERIFY_ONLY)).containsEntry(PARTITION, Errors.CONCURRENT_TRANSACTIONS);
        assertThat(verifying.asked).hasValue(1);

        Coordinator fenced = new Coordinator(Errors.PRODUCER_FENCED, Errors.NONE);
        assertThat(ask(1, 100, fenced, IMPLICIT_ADD)).containsEntry(PARTITION, Errors.PRODUCER_FENCED);
        assertThat(fenced.asked).hasValue(1);
    }
}
