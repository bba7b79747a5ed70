package io.minibroker.broker.api;

import io.minibroker.broker.log.LogException;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class FailuresTest {

    @Test
    void theCauseIsWhatTheFutureFailedWith() {
        IllegalStateException thrown = new IllegalStateException("bug");

        assertThat(Failures.cause(new CompletionException(thrown))).isSameAs(thrown);
        assertThat(Failures.cause(thrown)).isSameAs(thrown);
        CompletionException bare = new CompletionException("no cause", null);
        assertThat(Failures.cause(bare)).as("nothing behind it: kept").isSameAs(bare);
    }

    @Test
    void theLogsErrorBehindAFailureElseTheCallersChoice() {
        LogException refused = new LogException(Errors.NOT_LEADER_OR_FOLLOWER, "resigned");

        assertThat(Failures.logError(new CompletionException(refused), Errors.KAFKA_STORAGE_ERROR))
                .isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(Failures.logError(refused, Errors.KAFKA_STORAGE_ERROR)).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(Failures.logError(new CompletionException(new IllegalStateException("bug")),
                Errors.KAFKA_STORAGE_ERROR)).isEqualTo(Errors.KAFKA_STORAGE_ERROR);
    }
}
