package io.minibroker.broker.sharestate;

import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;

/**
 * The error messages of the share coordinator's ReadShareGroupState and WriteShareGroupState answers, as Kafka's
 * share coordinator sets them: its shard's refusals carry their own text (a share partition never initialized, a
 * malformed key) or the error's default message (fenced epochs, an unknown data partition); an operation that did
 * not run to its end (not the coordinator, a failed append) is "Unable to read share group state: " or "Unable to
 * write share group state: " followed by the failure's message; a stopped coordinator is "Share coordinator is not
 * available.". Kafka's default messages are {@link DefaultMessages}.
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
        return "Unable to " + operation + " share group state: " + DefaultMessages.of(cause);
    }
}
