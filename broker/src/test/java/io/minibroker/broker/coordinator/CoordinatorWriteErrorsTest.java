package io.minibroker.broker.coordinator;

import io.minibroker.broker.log.LogException;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class CoordinatorWriteErrorsTest {

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
            "UNKNOWN_TOPIC_OR_PARTITION, COORDINATOR_NOT_AVAILABLE",
            "NOT_ENOUGH_REPLICAS, COORDINATOR_NOT_AVAILABLE",
            "NOT_ENOUGH_REPLICAS_AFTER_APPEND, COORDINATOR_NOT_AVAILABLE",
            "REQUEST_TIMED_OUT, COORDINATOR_NOT_AVAILABLE",
            "NOT_LEADER_OR_FOLLOWER, NOT_COORDINATOR",
            "KAFKA_STORAGE_ERROR, NOT_COORDINATOR",
            "MESSAGE_TOO_LARGE, UNKNOWN_SERVER_ERROR",
            "RECORD_LIST_TOO_LARGE, UNKNOWN_SERVER_ERROR",
            "INVALID_FETCH_SIZE, UNKNOWN_SERVER_ERROR",
            // Any other error of the log's reaches the client as it is, as Kafka's default case.
            "NOT_COORDINATOR, NOT_COORDINATOR",
            "CORRUPT_MESSAGE, CORRUPT_MESSAGE",
            "INVALID_PRODUCER_EPOCH, INVALID_PRODUCER_EPOCH",
    })
    void theLogsRefusalBecomesTheCoordinatorsAnswer(Errors refused, Errors answered) {
        LogException refusal = new LogException(refused, "refused");

        assertThat(CoordinatorWriteErrors.answerFor(refusal)).as("thrown at once").isEqualTo(answered);
        assertThat(CoordinatorWriteErrors.answerFor(new CompletionException(refusal)))
                .as("a write's future failing").isEqualTo(answered);
    }

    @Test
    void aFailedFutureIsReadThroughItsDependentStages() {
        CompletableFuture<Long> write = CompletableFuture.failedFuture(
                new LogException(Errors.NOT_LEADER_OR_FOLLOWER, "resigned"));
        Errors[] seen = new Errors[1];
        write.thenApply(offset -> offset + 1).whenComplete((ignored, failure) ->
                seen[0] = CoordinatorWriteErrors.answerFor(failure));

        assertThat(seen[0]).isEqualTo(Errors.NOT_COORDINATOR);
    }

    @Test
    void aFailureNotTheLogsIsAnUnknownServerError() {
        assertThat(CoordinatorWriteErrors.answerFor(new UncheckedIOException(new IOException("disk"))))
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        assertThat(CoordinatorWriteErrors.answerFor(new CompletionException(new IllegalStateException("bug"))))
                .isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
    }
}
