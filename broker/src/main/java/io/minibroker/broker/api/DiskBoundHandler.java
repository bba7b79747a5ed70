package io.minibroker.broker.api;

import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * Runs a handler whose work is mostly on disk (topic definitions written and fsynced, log directories created or
 * deleted, segments unlinked, producer-id blocks reserved) on the broker's disk executor instead of the event
 * loop, which meanwhile serves its other connections. The connection still answers in request order.
 */
public final class DiskBoundHandler implements ApiHandler {

    private final ApiHandler handler;
    private final Executor disk;

    private DiskBoundHandler(ApiHandler handler, Executor disk) {
        this.handler = handler;
        this.disk = disk;
    }

    /** Wraps handlers to run on {@code disk}. */
    public static Function<ApiHandler, ApiHandler> on(Executor disk) {
        return handler -> new DiskBoundHandler(handler, disk);
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        // The disk thread's time is the request's too, as Kafka counts a request handler thread's.
        return CompletableFuture
                .supplyAsync(() -> context.handlerTime().measure(() -> handler.handle(context, request)), disk)
                .thenCompose(answer -> answer);
    }
}
