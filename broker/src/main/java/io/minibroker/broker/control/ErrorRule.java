package io.minibroker.broker.control;

import io.minibroker.protocol.error.Errors;

/**
 * A fault to inject: the requests that {@link #match} names are answered with {@link #error} — instead of being
 * served, or, {@link #afterServing}, once served (NOT_ENOUGH_REPLICAS_AFTER_APPEND's shape: the records are
 * written, the producer is told they may not be; {@link #servedFirst}) — for the next {@link #count} of them, or, with count
 * {@value #UNTIL_REMOVED}, until the rule is removed. Rules fire in the order they were added, one per request, so
 * two rules on the same API make a stack of errors answered in turn, as librdkafka's mock pushes them.
 *
 * <p>The error is written in the API's response shape: in each partition of a Produce, Fetch, ListOffsets or
 * OffsetCommit, else in the response's top-level error code (see {@code ErrorAnswers}).
 */
public record ErrorRule(RequestMatch match, Errors error, int count, boolean servedFirst) {

    public static final int UNTIL_REMOVED = -1;

    public ErrorRule {
        if (match.api() == null) {
            throw new IllegalArgumentException("an error rule names its API");
        }
        if (count == 0 || count < UNTIL_REMOVED) {
            throw new IllegalArgumentException("count is a number of requests, or -1 for until removed: " + count);
        }
    }

    /** The next request that {@code match} names answers {@code error} instead of being served. */
    public static ErrorRule answer(RequestMatch match, Errors error) {
        return new ErrorRule(match, error, 1, false);
    }

    /** For the next {@code n} requests. */
    public ErrorRule times(int n) {
        return new ErrorRule(match, error, n, servedFirst);
    }

    /** Until removed. */
    public ErrorRule always() {
        return new ErrorRule(match, error, UNTIL_REMOVED, servedFirst);
    }

    /** Served first, then answered with the error. */
    public ErrorRule afterServing() {
        return new ErrorRule(match, error, count, true);
    }
}
