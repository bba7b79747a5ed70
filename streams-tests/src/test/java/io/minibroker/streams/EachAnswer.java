package io.minibroker.streams;

import io.minibroker.broker.control.LoggedRequest;
import io.minibroker.broker.control.RecordedRequests;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.message.ApiKey;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * The answers a broker gives to one API, taken one at a time from its request log (recording from construction
 * on). A condition that a test can only read through a client (offsets committed, a log start moved) changes only
 * when the broker answers such a request: the test reads it again at each answer, blocking in between instead of
 * polling.
 */
final class EachAnswer {

    private final RecordedRequests log;
    private final ApiKey api;
    private final Set<LoggedRequest> taken = Collections.newSetFromMap(new IdentityHashMap<>());

    EachAnswer(EmbeddedBroker broker, ApiKey api) {
        this.log = broker.controls().requestLog();
        this.api = api;
        log.start();
    }

    /** Waits until a request of the API not taken yet is answered, until {@code deadlineNanos} (System.nanoTime). */
    boolean next(long deadlineNanos) throws InterruptedException {
        return log.await(logged -> logged.facts().api() == api && logged.answered() && !taken.contains(logged),
                        Duration.ofNanos(deadlineNanos - System.nanoTime()))
                .map(taken::add).orElse(false);
    }
}
