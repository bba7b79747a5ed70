package io.minibroker.broker.share;

import io.minibroker.protocol.error.DefaultMessages;
import io.minibroker.protocol.error.Errors;

/**
 * One partition's answer to a request's acknowledgements: its error and the message Kafka 4.3.1 gives with it (the
 * ErrorMessage of a ShareAcknowledge partition, the AcknowledgeErrorMessage of a ShareFetch one). Kafka's KafkaApis
 * answers its own checks (a malformed batch, an unknown topic or partition, a refused topic) with no message; its
 * SharePartitionManager answers with the message of the exception the acknowledgement failed with: the share
 * partition's own text for a refused acknowledgement, the error's default message for a share partition not in
 * memory, the share coordinator's message for a failed state write.
 */
record AcknowledgeResult(Errors error, String message) {

    static final AcknowledgeResult NONE = new AcknowledgeResult(Errors.NONE, null);

    /** An error Kafka's KafkaApis answers from its own checks: no message. */
    static AcknowledgeResult unexplained(Errors error) {
        return new AcknowledgeResult(error, null);
    }

    /** An error Kafka answers with its default message. */
    static AcknowledgeResult withDefaultMessage(Errors error) {
        return new AcknowledgeResult(error, DefaultMessages.of(error));
    }
}
