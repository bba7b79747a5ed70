package io.minibroker.broker.api;

import io.minibroker.broker.log.LogException;
import io.minibroker.protocol.error.Errors;

import java.util.concurrent.CompletionException;

/** What a failed future failed with, read the one way everywhere. */
public final class Failures {

    private Failures() {
    }

    /**
     * The failure itself: a stage depending on a failed future sees it wrapped in a CompletionException (with
     * no cause only if someone threw a bare one, kept as it is).
     */
    public static Throwable cause(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** The Kafka error of the log's refusal behind {@code failure}; {@code otherwise} for any other failure. */
    public static Errors logError(Throwable failure, Errors otherwise) {
        return cause(failure) instanceof LogException refused ? refused.error() : otherwise;
    }
}
