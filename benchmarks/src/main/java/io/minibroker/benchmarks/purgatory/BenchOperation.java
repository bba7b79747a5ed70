package io.minibroker.benchmarks.purgatory;

/**
 * What the completion thread may do to a request in {@code force} mode, whichever purgatory holds it. (In
 * {@code event} mode it sets the request's {@link Conditions} entry and checks its keys instead.)
 */
public interface BenchOperation {

    /** Completes the request now ({@code force} mode); false if it had completed or expired already. */
    boolean forceCompleteNow();
}
