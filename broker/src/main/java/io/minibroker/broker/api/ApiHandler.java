package io.minibroker.broker.api;

import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletionStage;

/**
 * Handles one API's requests. Runs on the connection's event loop, so it must not block: work that waits (a
 * parked fetch or produce) returns an incomplete stage and completes it later from any thread.
 */
public interface ApiHandler {

    /** The response body in the request's version, or a stage completed with null for no response (acks=0). */
    CompletionStage<Struct> handle(RequestContext context, Request request);
}
