package io.minibroker.broker.sharestate;

import io.minibroker.protocol.error.Errors;

/**
 * The error messages of the share coordinator's ReadShareGroupState and WriteShareGroupState answers, as Kafka's
 * share coordinator sets them: its shard's refusals carry their own text (a share partition never initialized, a
 * malformed key) or the error's default message (fenced epochs, an unknown data partition); an operation that did
 * not run to its end (not the coordinator, a failed append) is "Unable to read share group state: " or "Unable to
 * write share group state: " followed by the failure's message; a stopped coordinator is "Share coordinator is not
 * available.". Kafka's default messages are those of its {@code Errors}; our {@link Errors} has none, so the ones a
 * share coordinator can answer are here.
 */
final class ShareStateMessages {

    static final String READ_UNINITIALIZED = "Read operation on uninitialized share partition not allowed.";
    static final String WRITE_UNINITIALIZED = "Write operation on uninitialized share partition not allowed.";
    static final String NULL_TOPIC_ID = "The topic id cannot be null.";
    static final String NEGATIVE_PARTITION_ID = "The partition id cannot be a negative number.";
    static final String STOPPED = "Share coordinator is not available.";

    private ShareStateMessages() {
    }

    /** What Kafka answers when a read's or write's operation failed with {@code cause}. */
    static String unable(String operation, Errors cause) {
        return "Unable to " + operation + " share group state: " + defaultMessage(cause);
    }

    /** Kafka's default message of {@code error}, for the errors a share coordinator meets. */
    static String defaultMessage(Errors error) {
        return switch (error) {
            case NOT_COORDINATOR -> "This is not the correct coordinator.";
            case COORDINATOR_NOT_AVAILABLE -> "The coordinator is not available.";
            case COORDINATOR_LOAD_IN_PROGRESS -> "The coordinator is loading and hence can't process requests.";
            case UNKNOWN_TOPIC_OR_PARTITION -> "This server does not host this topic-partition.";
            case NOT_LEADER_OR_FOLLOWER -> "For requests intended only for the leader, this error indicates that the"
                    + " broker is not the current leader. For requests intended for any replica, this error indicates"
                    + " that the broker is not a replica of the topic partition.";
            case REQUEST_TIMED_OUT -> "The request timed out.";
            case NOT_ENOUGH_REPLICAS -> "Messages are rejected since there are fewer in-sync replicas than required.";
            case NOT_ENOUGH_REPLICAS_AFTER_APPEND ->
                    "Messages are written to the log, but to fewer in-sync replicas than required.";
            case KAFKA_STORAGE_ERROR -> "Disk error when trying to access log file on the disk.";
            case MESSAGE_TOO_LARGE ->
                    "The request included a message larger than the max message size the server will accept.";
            case RECORD_LIST_TOO_LARGE ->
                    "The request included message batch larger than the configured segment size on the server.";
            case FENCED_LEADER_EPOCH -> "The leader epoch in the request is older than the epoch on the broker.";
            case FENCED_STATE_EPOCH ->
                    "The share coordinator rejected the request because the share-group state epoch did not match.";
            default -> "The server experienced an unexpected error when processing the request.";
        };
    }
}
