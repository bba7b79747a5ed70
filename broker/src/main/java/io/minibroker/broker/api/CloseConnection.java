package io.minibroker.broker.api;

/**
 * A handler's answer that is no answer: the connection is closed instead, as Kafka closes it when an acks=0
 * produce fails (the client has no response to read the error from, so the disconnect is the signal).
 */
public final class CloseConnection extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CloseConnection(String reason) {
        super(reason, null, false, false);
    }
}
