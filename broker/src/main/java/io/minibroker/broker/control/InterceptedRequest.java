package io.minibroker.broker.control;

import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * One request as the controls handle it while any control is set: the error rule that fired for it (if any), its
 * entry in the request log (if recording), and how its answer is held back (delay, or a hung broker).
 */
public final class InterceptedRequest {

    private final BrokerControls controls;
    private final Request request;
    /** The rule that fired, or null. */
    private final ErrorRule rule;
    private final LoggedRequest logged;
    private final long delayMs;

    InterceptedRequest(BrokerControls controls, Request request, ErrorRule rule, LoggedRequest logged, long delayMs) {
        this.controls = controls;
        this.request = request;
        this.rule = rule;
        this.logged = logged;
        this.delayMs = delayMs;
    }

    /** The answer to send instead of serving the request, or null to serve it. */
    public Struct answerInstead() {
        return rule != null && !rule.servedFirst() ? ErrorAnswers.instead(request, rule.error()) : null;
    }

    /** The served answer, with the error of an after-serving rule written over it. */
    public Struct served(Struct body) {
        return rule != null && rule.servedFirst() ? ErrorAnswers.after(request, body, rule.error()) : body;
    }

    /**
     * Sends the answer through {@code send} later if it must wait — held while the broker is hung, delayed on
     * {@code loop} by the latency set — and says so; false when it may go now.
     */
    public boolean holdsBack(Runnable send, ScheduledExecutorService loop) {
        if (controls.holdIfHung(send, loop)) {
            return true;
        }
        if (delayMs > 0) {
            loop.schedule(send, delayMs, TimeUnit.MILLISECONDS);
            return true;
        }
        return false;
    }

    /** The answer is being written (null: none, as for an acks=0 Produce). */
    public void answered(Struct body) {
        if (logged != null) {
            controls.requestLog().answered(logged, request.version(), body);
        }
    }
}
