package io.minibroker.broker.control;

import io.minibroker.protocol.error.Errors;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The requests a broker received while recording was on ({@link #start}), for a test to query or to await: "wait
 * until the consumer has committed partition 3". The broker's own ({@link RecordedRequests}) or, over HTTP,
 * {@link HttpControls}'.
 */
public interface RequestLog {

    /** The most requests kept; older ones are dropped first, so a long test's log stays bounded. */
    int CAPACITY = 10_000;

    /** Records every request from now on (those already logged stay). */
    void start();

    void stop();

    boolean recording();

    void clear();

    /** The logged requests {@code match} names, oldest first. */
    List<LoggedRequest> find(RequestMatch match);

    /**
     * Waits until a request that {@code match} names has arrived (one logged earlier counts), at most
     * {@code timeout} (real time: it waits on the clients); empty if none did.
     */
    Optional<LoggedRequest> await(RequestMatch match, Duration timeout) throws InterruptedException;

    /** Waits until a request that {@code match} names has been answered with {@code error}. */
    Optional<LoggedRequest> awaitAnswer(RequestMatch match, Errors error, Duration timeout)
            throws InterruptedException;
}
