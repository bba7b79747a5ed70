package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;

import java.util.List;

/**
 * A batch refused because of some of its records, each named by its index in the batch: Kafka's
 * RecordValidationException, which a produce answers with the partition's RecordErrors (KIP-467) so that a
 * client fails only those records with their own reason and the rest of the batch as collateral.
 *
 * <p>The partition's error and message are Kafka's: INVALID_TIMESTAMP with a fixed message when any record's
 * timestamp was refused, else INVALID_RECORD with the count and the first three record errors.
 */
public final class RecordValidationException extends LogException {
    private static final long serialVersionUID = 1L;

    /** How many record errors the partition's message repeats, as Kafka's does. */
    private static final int ERRORS_IN_MESSAGE = 3;

    private final transient List<RecordError> recordErrors;

    private RecordValidationException(Errors error, String message, List<RecordError> recordErrors) {
        super(error, message);
        this.recordErrors = List.copyOf(recordErrors);
    }

    /** The refusal of a batch whose records {@code recordErrors} failed; {@code anyTimestamp} if any for its timestamp. */
    static RecordValidationException of(List<RecordError> recordErrors, boolean anyTimestamp) {
        if (anyTimestamp) {
            return new RecordValidationException(Errors.INVALID_TIMESTAMP,
                    "One or more records have been rejected due to invalid timestamp", recordErrors);
        }
        return new RecordValidationException(Errors.INVALID_RECORD, "One or more records have been rejected due to "
                + recordErrors.size() + " record errors in total, and only showing the first three errors at most: "
                + recordErrors.subList(0, Math.min(recordErrors.size(), ERRORS_IN_MESSAGE)), recordErrors);
    }

    /** The failed records in batch order. */
    public List<RecordError> recordErrors() {
        return recordErrors;
    }

    /** One refused record: its index in its batch (0 for the first record) and why. */
    public record RecordError(int batchIndex, String message) {
        /** Kafka's form, which its messages quote. */
        @Override
        public String toString() {
            return "RecordError(batchIndex=" + batchIndex + ", message='" + message + "')";
        }
    }
}
