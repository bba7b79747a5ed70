package io.minibroker.protocol.error;

/**
 * Raised when bytes cannot be understood as the Kafka protocol, or a message cannot be written in the
 * requested version. It is the only exception decoding lets escape, so a connection handler can catch it
 * alone and close the connection.
 */
public class ProtocolException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Errors error;

    public ProtocolException(String message) {
        this(Errors.CORRUPT_MESSAGE, message);
    }

    public ProtocolException(Errors error, String message) {
        super(message);
        this.error = error;
    }

    public ProtocolException(Errors error, String message, Throwable cause) {
        super(message, cause);
        this.error = error;
    }

    /** The Kafka error a broker should report for this failure, when it answers rather than disconnects. */
    public Errors error() {
        return error;
    }
}
