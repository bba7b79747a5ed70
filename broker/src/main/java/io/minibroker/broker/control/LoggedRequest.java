package io.minibroker.broker.control;

import io.minibroker.protocol.error.Errors;

import java.util.List;

/**
 * One request in the {@link RequestLog}: what it was, when it arrived and when it was answered (broker clock,
 * epoch ms; -1 while unanswered), and the error codes of its answer (each once, in the order met; empty until
 * answered, and for an answer without errors). An acks=0 Produce is never answered.
 */
public final class LoggedRequest {

    private final RequestFacts facts;
    private final long arrivalMs;
    private volatile long answeredMs = -1;
    private volatile List<Errors> errors = List.of();

    LoggedRequest(RequestFacts facts, long arrivalMs) {
        this.facts = facts;
        this.arrivalMs = arrivalMs;
    }

    public RequestFacts facts() {
        return facts;
    }

    public long arrivalMs() {
        return arrivalMs;
    }

    public long answeredMs() {
        return answeredMs;
    }

    public boolean answered() {
        return answeredMs >= 0;
    }

    public List<Errors> errors() {
        return errors;
    }

    void answer(long atMs, List<Errors> answeredErrors) {
        errors = answeredErrors; // before the time: a reader that sees it answered sees its errors
        answeredMs = atMs;
    }

    @Override
    public String toString() {
        return facts.api() + " v" + facts.version() + " #" + facts.correlationId() + " from " + facts.clientId()
                + " " + facts.topics() + (answered() ? " answered " + errors : " unanswered");
    }
}
