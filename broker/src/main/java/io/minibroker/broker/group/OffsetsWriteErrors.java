package io.minibroker.broker.group;

import io.minibroker.broker.log.LogException;
import io.minibroker.protocol.error.Errors;

import java.util.concurrent.CompletionException;

/** What a client is told when the offsets topic refuses or fails a write of the coordinator's. */
final class OffsetsWriteErrors {

    private OffsetsWriteErrors() {
    }

    /**
     * The error a client gets when the offsets topic refuses a write, commits and group metadata alike, as Kafka 4's
     * coordinator translates it (appendGroupMetadataErrorToResponseError): one that makes the client find the
     * coordinator again and retry where retrying can help. {@code failure} is the log's refusal, or what a write's
     * future failed with.
     */
    static Errors answerFor(Throwable failure) {
        Errors error = unwrap(failure).error();
        return switch (error) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                    Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.UNKNOWN_SERVER_ERROR;
            default -> error;
        };
    }

    /** The log's failure behind a write's future failing; any other becomes UNKNOWN_SERVER_ERROR. */
    static LogException unwrap(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        return cause instanceof LogException log ? log
                : new LogException(Errors.UNKNOWN_SERVER_ERROR, String.valueOf(cause), cause);
    }
}
