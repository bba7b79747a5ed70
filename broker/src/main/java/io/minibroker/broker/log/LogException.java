package io.minibroker.broker.log;

import io.minibroker.protocol.error.Errors;

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

    public Errors error() {
        return error;
    }
}
