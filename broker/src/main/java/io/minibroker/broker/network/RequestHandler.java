package io.minibroker.broker.network;

import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.Failures;
import io.minibroker.broker.api.HandlerTime;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.SupportedApis;
import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.InterceptedRequest;
import io.minibroker.broker.metrics.NetworkMetrics;
import io.minibroker.broker.quota.ClientQuotaEnforcement;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.frame.OutboundFrame;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.ApiVersionsFallback;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import io.minibroker.protocol.schema.RecordsPayload;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * Frame to request to handler, and back: one per connection. Decodes each frame, dispatches it through the
 * {@link SupportedApis} table, one request at a time as Kafka serves a connection, and writes the responses in
 * request order ({@link ResponseQueue}).
 *
 * <p>Bad input closes the connection with a log line, as Kafka's socket server does: a frame that cannot be
 * parsed, an API or version the broker did not advertise, an oversized frame. The one exception is an
 * ApiVersions request of a version too new for us, which gets Kafka's v0 answer with UNSUPPORTED_VERSION so the
 * client can retry with a version both sides know.
 *
 * <p>On a SASL_PLAINTEXT listener a connection must authenticate first ({@link SaslSession}): before it has,
 * anything but the next step (ApiVersions or SaslHandshake, then SaslAuthenticate) closes it: at once before the
 * handshake, after {@code connection.failed.authentication.delay.ms} once the handshake chose a mechanism, as a
 * failed step closes it once its answer is written; all as Kafka's authenticator does.
 *
 * <p>Backpressure: reading stops while the connection has {@value #MAX_IN_FLIGHT} requests read and unanswered or
 * while its outbound buffer is above the high-water mark (a client that does not read its responses), and resumes
 * when both clear, so a connection's memory stays bounded. A frame read while an earlier request is served waits
 * here, and its bytes count in the shared request budget ({@code queued.max.request.bytes}) until it is dispatched,
 * as Kafka's memory pool counts a request's buffer: frames held whole are counted past the limit if need be (they
 * are in memory already), and the partial frames of every connection, this one's next included, then wait for room
 * ({@link FrameDecoder}), so a client pipelining large requests behind a parked one cannot grow the heap without
 * bound. An idle connection is closed.
 */
public final class RequestHandler extends ChannelInboundHandlerAdapter {

    /** Unanswered requests per connection before reading pauses; above Kafka clients' default of 5 in flight. */
    static final int MAX_IN_FLIGHT = 64;

    private static final Logger LOG = LoggerFactory.getLogger(RequestHandler.class);

    private final SupportedApis apis;
    private final String listenerName;
    private final NetworkMetrics metrics;
    /** The connection's authentication on a SASL_PLAINTEXT listener; null on a PLAINTEXT one. */
    private final SaslSession sasl;
    /** A test's controls over this broker's clients (null on a controller's listener, which they leave alone). */
    private final BrokerControls controls;
    /** The client quotas' throttling (null on a controller's listener, whose peers are the cluster's nodes). */
    private final ClientQuotaEnforcement quotas;
    /**
     * Throttles under way: while one is, the connection is muted, as Kafka's socket server mutes a throttled
     * channel (KIP-219): nothing is read, and nothing read before is served.
     */
    private int throttles;
    private final ResponseQueue responses = new ResponseQueue();
    /**
     * Frames read while a request of this connection is being served, each with what it holds of
     * {@link #requestBytes}.
     */
    private final ArrayDeque<ReadFrame> waiting = new ArrayDeque<>();
    /** The shared budget of request bytes the frames in {@link #waiting} count in; null for none (tests). */
    private final MemoryBudget requestBytes;
    /** Requests handed to their handlers and not answered yet, and how many of them are Produce requests. */
    private int unanswered;
    private int unansweredProduces;
    /** Within {@link #serveWaiting}: a request answered at once there must not start the next one itself. */
    private boolean draining;
    /** The connection's event loop for its requests' contexts; made at the first request, on that loop. */
    private Executor eventLoop;

    public RequestHandler(SupportedApis apis, String listenerName, NetworkMetrics metrics, SaslSession sasl,
                          BrokerControls controls, ClientQuotaEnforcement quotas, MemoryBudget requestBytes) {
        this.apis = apis;
        this.requestBytes = requestBytes;
        this.quotas = quotas;
        this.listenerName = listenerName;
        this.metrics = metrics;
        this.sasl = sasl;
        this.controls = controls;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        metrics.connectionOpened();
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        if (!ctx.channel().isActive()) {
            frame.release(); // decoded in the same read as a frame that closed the connection: not served
            return;
        }
        if (waiting.isEmpty() && !draining && mayServe(frame)) {
            // The common case: nothing before it waits for an answer, so it goes at once, queued nowhere.
            draining = true;
            try {
                serve(ctx, frame);
            } finally {
                draining = false;
            }
        } else {
            waiting.add(new ReadFrame(frame, hold(frame)));
            metrics.requestsWaiting(1);
        }
        serveWaiting(ctx);
        updateAutoRead(ctx);
    }

    private record ReadFrame(ByteBuf frame, long heldBytes) {
    }

    /** Counts a queued frame, size prefix included as the decoder reserved it, in the request budget. */
    private long hold(ByteBuf frame) {
        if (requestBytes == null) {
            return 0;
        }
        long bytes = Frames.SIZE_PREFIX_BYTES + (long) frame.readableBytes();
        requestBytes.hold(bytes);
        return bytes;
    }

    private void unhold(long bytes) {
        if (bytes > 0) {
            requestBytes.release(bytes);
        }
    }

    /**
     * Serves the frames read, one request at a time: the next is dispatched only once the one before it has its
     * answer, as Kafka's socket server serves a connection (it mutes the channel until the response is sent). So
     * a request pipelined behind another sees what that one changed: an OffsetFetch behind an OffsetCommit, a
     * ListOffsets behind a DeleteRecords. Reading goes on meanwhile, bounded by {@link #updateAutoRead}. One
     * exception: a Produce behind unanswered Produce requests only (acks=all waiting for the replicas) goes at
     * once, as before, so that a producer's pipelined requests are still replicated together: their appends keep
     * request order without it (at dispatch, or in sequence order behind a transaction's verification).
     */
    private void serveWaiting(ChannelHandlerContext ctx) {
        if (draining) {
            return; // the loop below, further up the stack, goes on with the next frame
        }
        draining = true;
        try {
            while (!waiting.isEmpty() && mayServe(waiting.peek().frame()) && ctx.channel().isActive()) {
                ReadFrame next = waiting.poll();
                metrics.requestsWaiting(-1);
                unhold(next.heldBytes());
                serve(ctx, next.frame());
            }
        } finally {
            draining = false;
        }
    }

    /**
     * Dispatches one frame; a frame that breaks the protocol closes the connection. The request's time starts here,
     * not when a frame queued behind an earlier request was read, as Kafka's TotalTimeMs starts when it reads a
     * request: its muted channel leaves one pipelined behind another unread until that one's answer is sent.
     */
    private void serve(ChannelHandlerContext ctx, ByteBuf frame) {
        try {
            dispatch(ctx, frame, metrics.receivedNanos());
        } catch (ProtocolException e) {
            frame.release();
            LOG.warn("Closing connection from {}: {} ({})", ctx.channel().remoteAddress(), e.getMessage(), e.error());
            ctx.close();
        }
    }

    /** Whether the next frame read may go to its handler now (see {@link #serveWaiting}). */
    private boolean mayServe(ByteBuf frame) {
        boolean produce = frame.readableBytes() >= 2 && frame.getShort(frame.readerIndex()) == ApiKey.PRODUCE.id();
        return throttles == 0 && (unanswered == 0 || (produce && unanswered == unansweredProduces));
    }

    private void dispatch(ChannelHandlerContext ctx, ByteBuf frame, long receivedNanos) {
        if (sasl != null && sasl.hasFailed()) {
            frame.release(); // pipelined behind the failed step: the connection is closing, nothing more is served
            return;
        }
        if (sasl != null && sasl.badMechanismMessage() != null) {
            // Kafka's authenticator throws at the frame after such a handshake, before reading it as a request, and
            // its Selector closes the connection at once (no failed-authentication delay), answering nothing.
            frame.release();
            LOG.info("Failed re-authentication with {} ({})", ctx.channel().remoteAddress(),
                    sasl.badMechanismMessage());
            ctx.close();
            return;
        }
        if (sasl != null && sasl.awaitsRawToken()) {
            authenticateRawToken(ctx, frame);
            return;
        }
        RequestHeader header = RequestHeader.read(frame.duplicate());
        int frameBytes = frame.readableBytes() + Frames.SIZE_PREFIX_BYTES;
        if (sasl != null && sasl.isAuthenticated() && !(header.apiKey() == ApiKey.SASL_HANDSHAKE.id()
                && sasl.beginReauthentication()) && sasl.expired()) {
            // As Kafka's SocketServer: a request past the session's end that begins no re-authentication.
            frame.release();
            LOG.info("Closing the connection of {} on {}: its SASL session expired and it did not re-authenticate",
                    ctx.channel().remoteAddress(), listenerName);
            metrics.expiredConnectionKilled();
            ctx.close();
            return;
        }
        if (sasl != null && !sasl.admits(header.apiKey())) {
            String api = ApiKey.forId(header.apiKey()).name();
            if (!sasl.awaitsAuthenticate()) {
                // Kafka 4.3's authenticator takes it for an invalid request (InvalidRequestException) and closes
                // at once, as for a second ApiVersions.
                throw new ProtocolException(Errors.INVALID_REQUEST,
                        "Unexpected Kafka request of type " + api + " during SASL handshake");
            }
            // After the handshake it fails the authentication (IllegalSaslStateException): the connection closes
            // after connection.failed.authentication.delay.ms, as after a wrong password.
            String message = "Unexpected Kafka request of type " + api + " during SASL authentication";
            frame.release();
            sasl.failOutOfTurn();
            LOG.info("Failed authentication with {} ({})", ctx.channel().remoteAddress(), message);
            closeAfterFailedAuthentication(ctx, null, null);
            return;
        }
        if (ApiVersionsFallback.applies(header.apiKey(), header.apiVersion())) {
            frame.release();
            metrics.requestReceived(ApiKey.API_VERSIONS, frameBytes);
            Struct body = apis.unsupportedApiVersions().struct();
            OutboundFrame response = MessageCodec.encodeResponse(ctx.alloc(), ApiKey.API_VERSIONS, (short) 0,
                    header.correlationId(), body);
            metrics.responseErrors(ApiKey.API_VERSIONS, (short) 0, body);
            metrics.responseWritten(ApiKey.API_VERSIONS, receivedNanos, response.sizeInBytes());
            responses.complete(responses.reserve(), response, ctx.channel());
            return;
        }
        SupportedApis.Entry entry = apis.lookup(header.apiKey(), header.apiVersion());
        if (entry == null) {
            throw new ProtocolException(Errors.UNSUPPORTED_VERSION,
                    "API " + header.apiKey() + " version " + header.apiVersion() + " is not supported");
        }
        Request request = MessageCodec.decodeRequest(frame);
        metrics.requestReceived(request.api(), frameBytes);
        unanswered++;
        if (request.api() == ApiKey.PRODUCE) {
            unansweredProduces++;
        }
        Object place = responses.reserve();
        Executor loop = eventLoopOf(ctx);
        // A SASL exchange's time counts against no quota: Kafka's authenticator serves it, not a request handler.
        HandlerTime handlerTime = quotas == null || sasl != null && !sasl.isAuthenticated() ? HandlerTime.NOT_COUNTED
                : quotas.handlerTime();
        RequestContext context = new RequestContext(listenerName, ctx.channel().remoteAddress(), sasl,
                ctx.channel().attr(TlsHandshakeWatcher.PRINCIPAL).get(), TopicRights.ALL, loop, handlerTime);
        // One volatile read when no control is set; otherwise the controls may answer in the handler's place.
        InterceptedRequest intercepted = controls != null && controls.engaged()
                ? controls.intercept(request, ctx.channel().remoteAddress()) : null;
        // The frame stays retained until the handler is done: record fields of the request are slices of it.
        CompletionStage<Struct> answer;
        try {
            Struct instead = intercepted == null ? null : intercepted.answerInstead();
            answer = instead != null ? CompletableFuture.completedFuture(instead)
                    : handlerTime.measure(() -> entry.handler().handle(context, request));
        } catch (RuntimeException | Error e) { // an Error too: a handler's bug must not leak the frame or its slot
            answer = CompletableFuture.failedFuture(e); // respond() releases the frame and closes the connection
        }
        answer.whenComplete((served, failure) -> {
            Struct body = intercepted == null ? served : intercepted.served(served);
            Runnable send = () -> respond(ctx, place, request, context, frameBytes, frame, receivedNanos, body,
                    failure, intercepted);
            if (intercepted != null && intercepted.holdsBack(send, ctx.executor())) {
                return;
            }
            try {
                loop.execute(send); // at once when completed on the loop
            } catch (RejectedExecutionException e) { // the broker is closing: nothing will be written
                frame.release();
                releasePayloads(body);
            }
        });
    }

    /** Runs a task on the connection's event loop: at once when called there, else queued on it. */
    private Executor eventLoopOf(ChannelHandlerContext ctx) {
        if (eventLoop == null) {
            EventLoop loop = ctx.channel().eventLoop();
            eventLoop = task -> {
                if (loop.inEventLoop()) {
                    task.run();
                } else {
                    loop.execute(task);
                }
            };
        }
        return eventLoop;
    }

    /**
     * A bare token a client sends after a SaslHandshake v0: answered by the server's as a bare frame (empty for
     * PLAIN), or the connection closed. Nothing else is in flight then (every step before authentication is answered at once), so the
     * answer needs no place in the response queue.
     */
    private void authenticateRawToken(ChannelHandlerContext ctx, ByteBuf frame) {
        byte[] token = new byte[frame.readableBytes()];
        frame.readBytes(token);
        frame.release();
        SaslSession.Step step = sasl.authenticate(token);
        if (step.error() != Errors.NONE) {
            LOG.info("Failed authentication with {} ({})", ctx.channel().remoteAddress(), step.message());
            closeAfterFailedAuthentication(ctx, null, null); // the legacy exchange has no error to send
            return;
        }
        ByteBuf answer = ctx.alloc().buffer(Frames.SIZE_PREFIX_BYTES + step.serverToken().length);
        answer.writeInt(step.serverToken().length).writeBytes(step.serverToken()); // PLAIN's is empty
        ctx.writeAndFlush(answer);
    }

    /**
     * As Kafka's authenticator: the answer to a failed SASL step ({@code response}, null for none) is held for
     * {@code connection.failed.authentication.delay.ms}, then written, and the connection closed. Nothing else is
     * in flight before authentication, and frames that arrive meanwhile are dropped ({@link #dispatch}).
     */
    private void closeAfterFailedAuthentication(ChannelHandlerContext ctx, Object place, OutboundFrame response) {
        ctx.executor().schedule(() -> {
            if (!ctx.channel().isActive()) { // the client left first; its answer is never written
                if (response != null) {
                    response.release();
                }
                return;
            }
            if (place != null) {
                responses.complete(place, response, ctx.channel());
            }
            LOG.info("Closing connection from {}: SASL authentication failed", ctx.channel().remoteAddress());
            ctx.channel().writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }, sasl.limits().failedAuthenticationDelayMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * Writes a handler's answer in its turn. Any failure closes the connection: a slot left unfilled would hold
     * back every later response on it.
     */
    private void respond(ChannelHandlerContext ctx, Object place, Request request, RequestContext context,
                         int frameBytes, ByteBuf frame, long receivedNanos, Struct body, Throwable failure,
                         InterceptedRequest intercepted) {
        frame.release();
        unanswered--;
        if (request.api() == ApiKey.PRODUCE) {
            unansweredProduces--;
        }
        if (!ctx.channel().isActive()) {
            releasePayloads(body);
            return;
        }
        Throwable cause = Failures.cause(failure);
        if (cause instanceof CloseConnection) {
            LOG.info("Closing connection from {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
            ctx.close();
            return;
        }
        if (cause != null) {
            LOG.error("Handler for {} v{} failed; closing the connection", request.api(), request.version(), cause);
            ctx.close();
            return;
        }
        if (sasl != null && request.api() == ApiKey.API_VERSIONS && !sasl.isAuthenticated() && body != null
                && new ApiVersionsResponseView(body).errorCode() == Errors.NONE.code()) {
            // Answered with the table: as Kafka's authenticator, a second one closes. One answered with an error
            // (INVALID_REQUEST for a bad client software name) leaves the client free to ask again.
            sasl.apiVersionsAnswered();
        }
        try {
            if (body != null) {
                metrics.responseErrors(request.api(), request.version(), body);
            }
            if (intercepted != null) {
                intercepted.answered(body);
            }
            ClientQuotaEnforcement.Throttle throttle = null;
            if (quotas != null) {
                throttle = quotas.throttle(request, context.principal().name(),
                        frameBytes - Frames.SIZE_PREFIX_BYTES, context.handlerTime(), body);
                if (throttle.answer() != body) { // a fetch answered empty: its records are not sent
                    releasePayloads(body);
                    body = throttle.answer();
                }
            }
            OutboundFrame response = body == null ? null : MessageCodec.encodeResponse(ctx.alloc(), request.api(),
                    request.version(), request.header().correlationId(), body);
            metrics.responseWritten(request.api(), receivedNanos, response == null ? 0 : response.sizeInBytes());
            if (sasl != null && sasl.hasFailed()) {
                closeAfterFailedAuthentication(ctx, place, response);
                return;
            }
            if (throttle != null && throttle.throttleMs() > 0) {
                // Before the answer goes out, as Kafka starts the throttle before sending: the client, told the
                // throttle time, must find the connection muted from then on.
                throttle(ctx, throttle);
            }
            responses.complete(place, response, ctx.channel());
            serveWaiting(ctx);
            updateAutoRead(ctx);
        } catch (RuntimeException | Error e) { // the slot stays unfilled: only closing frees the later responses
            LOG.error("Cannot encode the {} v{} response; closing the connection", request.api(), request.version(), e);
            ctx.close();
        }
    }

    /** Mutes the connection for the throttle's time after a throttled answer was written, on the broker's clock. */
    private void throttle(ChannelHandlerContext ctx, ClientQuotaEnforcement.Throttle throttle) {
        throttles++;
        quotas.afterThrottle(ctx.channel().eventLoop(), throttle, () -> {
            throttles--;
            serveWaiting(ctx);
            updateAutoRead(ctx);
        });
    }

    /** An answer that will not be encoded still holds its records payloads (file regions of a fetch). */
    private static void releasePayloads(Struct body) {
        if (body != null) {
            body.recordsPayloads().forEach(RecordsPayload::release);
        }
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        updateAutoRead(ctx);
        ctx.fireChannelWritabilityChanged();
    }

    private void updateAutoRead(ChannelHandlerContext ctx) {
        boolean canTakeMore = throttles == 0 && ctx.channel().isWritable()
                && responses.inFlight() + waiting.size() < MAX_IN_FLIGHT;
        if (ctx.channel().config().isAutoRead() != canTakeMore) {
            ctx.channel().config().setAutoRead(canTakeMore);
        }
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object event) {
        if (event instanceof IdleStateEvent) {
            LOG.info("Closing idle connection from {} (connections.max.idle.ms)", ctx.channel().remoteAddress());
            ctx.close();
        } else {
            ctx.fireUserEventTriggered(event);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        metrics.connectionClosed();
        responses.discard();
        waiting.forEach(read -> {
            read.frame().release();
            unhold(read.heldBytes());
        });
        metrics.requestsWaiting(-waiting.size());
        waiting.clear();
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable reason = cause.getCause() instanceof ProtocolException ? cause.getCause() : cause;
        LOG.warn("Closing connection from {}: {}", ctx.channel().remoteAddress(), reason.toString());
        ctx.close();
    }
}
