package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;
import java.io.IOException;

/**
 * A request the log refuses, with the Kafka error the broker should answer with for the partition
 * ({@link RecordValidationException} when some records are at fault).
 */
public class LogException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Errors error;

    public LogException(Errors error, String message) {
        super(message);
        this.error = error;
    }

    public LogException(Errors error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    /** KAFKA_STORAGE_ERROR: the disk failed {@code topicPartition}'s log. */
    static LogException storageError(TopicPartition topicPartition, String message, IOException cause) {
        return new LogException(Errors.KAFKA_STORAGE_ERROR, message + " in " + topicPartition + ": " + cause, cause);
    }

    public Errors error() {
        return error;
    }
}
