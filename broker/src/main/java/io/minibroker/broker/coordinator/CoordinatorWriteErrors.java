package io.minibroker.broker.coordinator;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.protocol.error.Errors;

/**
 * What a client is told when a coordinator's write to its topic fails ({@link CoordinatorAppender}): the group
 * coordinator's ({@code __consumer_offsets}), the transaction coordinator's ({@code __transaction_state}) and the
 * share coordinator's ({@code __share_group_state}) alike. An error that sends the client to find the coordinator
 * again and retry where retrying can help.
 * <p>
 * Kafka writes the group and share coordinators' translation once (CoordinatorOperationExceptionHelper) and the
 * transaction coordinator's apart (TransactionStateManager's append callback); they agree on every error an
 * append can fail with here. Where their lists differ it is on errors whose source only one of them has:
 * NOT_ENOUGH_REPLICAS_AFTER_APPEND is listed by the transaction coordinator alone, as only its writes wait in the
 * produce purgatory; here every coordinator's write waits there ({@link CoordinatorAppender#replicated}), and a
 * write Kafka's runtime gives up on waiting becomes COORDINATOR_NOT_AVAILABLE too (REQUEST_TIMED_OUT).
 * INVALID_FETCH_SIZE is the runtime's alone (a read's error, never an append's); it is kept for the group
 * coordinator's sake.
 */
public final class CoordinatorWriteErrors {

    private CoordinatorWriteErrors() {
    }

    /**
     * The client's error for {@code failure}: the log's refusal (a LogException), or what a write's future failed
     * with. A failure not the log's is unexpected: UNKNOWN_SERVER_ERROR.
     */
    public static Errors answerFor(Throwable failure) {
        Errors error = Failures.logError(failure, Errors.UNKNOWN_SERVER_ERROR);
        return switch (error) {
            case UNKNOWN_TOPIC_OR_PARTITION, NOT_ENOUGH_REPLICAS, NOT_ENOUGH_REPLICAS_AFTER_APPEND, REQUEST_TIMED_OUT ->
                    Errors.COORDINATOR_NOT_AVAILABLE;
            case NOT_LEADER_OR_FOLLOWER, KAFKA_STORAGE_ERROR -> Errors.NOT_COORDINATOR;
            case MESSAGE_TOO_LARGE, RECORD_LIST_TOO_LARGE, INVALID_FETCH_SIZE -> Errors.UNKNOWN_SERVER_ERROR;
            default -> error;
        };
    }
}
