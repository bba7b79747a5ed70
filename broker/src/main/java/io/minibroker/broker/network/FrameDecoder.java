package io.minibroker.broker.network;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.frame.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;

/**
 * Bytes to frames: cuts the stream at Kafka's 4-byte size prefixes. The announced size is checked against the
 * connection's limit before anything is buffered for it, so a peer announcing gigabytes is disconnected at once
 * instead of being waited for; the error reaches {@link RequestHandler#exceptionCaught}. The limit is
 * {@code socket.request.max.bytes}, and on a SASL connection that has not authenticated yet
 * {@code sasl.server.max.receive.size} (512 KiB), as in Kafka, so that a client without credentials cannot make
 * the broker hold a large frame; so also during a re-authentication, whose frames Kafka's authenticator reads.
 *
 * <p>A frame that has not fully arrived with its size prefix is held against a {@link MemoryBudget} shared by all
 * connections: {@code queued.max.request.bytes} once authenticated, where a spent budget pauses reading until bytes
 * are released (see {@link ReadGate}); the smaller budget of unauthenticated connections before, where a spent
 * budget closes the connection, since a peer without credentials that holds partial frames is not worth waiting
 * for. A frame already complete in what was read needs no reservation: its bytes are in memory anyway, and so the
 * small requests of a SASL handshake are read whatever attackers hold.
 *
 * <p>One frame a call (Netty calls again while bytes remain), so each frame is checked against the limit in force
 * once the frames before it were handled: a request right behind a SaslAuthenticate is held to the larger one.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private final IntSupplier maxFrameBytes;
    private final BooleanSupplier authenticated;
    private final MemoryBudget budget;
    private final MemoryBudget unauthenticatedBudget;
    private final ReadGate gate;
    /**
     * Told of a frame refused for its size: while SASL steps are under way (before the connection authenticated, or
     * during a re-authentication) a failed authentication or re-authentication, which the SASL session counts.
     */
    private final Runnable refusedForSize;
    private ChannelHandlerContext ctx;
    /** The budget the frame being read holds bytes of, and how many; null and 0 when it holds none. */
    private MemoryBudget heldFrom;
    private long held;
    private final Runnable wakeUp = this::wakeUp;

    /** Unbudgeted, for tests and connections that are not a listener's. */
    public FrameDecoder(int maxFrameBytes) {
        this(() -> maxFrameBytes, () -> true, null, null, null, () -> { });
    }

    FrameDecoder(IntSupplier maxFrameBytes, BooleanSupplier authenticated, MemoryBudget budget,
                 MemoryBudget unauthenticatedBudget, ReadGate gate, Runnable refusedForSize) {
        this.maxFrameBytes = maxFrameBytes;
        this.authenticated = authenticated;
        this.budget = budget;
        this.unauthenticatedBudget = unauthenticatedBudget;
        this.gate = gate;
        this.refusedForSize = refusedForSize;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ByteBuf frame;
        try {
            frame = Frames.readFrame(in, maxFrameBytes.getAsInt());
        } catch (ProtocolException e) {
            refusedForSize.run();
            throw e;
        }
        if (frame != null) {
            out.add(frame);
            release();
            return;
        }
        if (held == 0 && in.readableBytes() >= Frames.SIZE_PREFIX_BYTES && budget != null) {
            reserve(Frames.SIZE_PREFIX_BYTES + (long) in.getInt(in.readerIndex()));
        }
    }

    private void reserve(long frameBytes) {
        boolean authenticated = this.authenticated.getAsBoolean();
        MemoryBudget from = authenticated ? budget : unauthenticatedBudget;
        if (from.tryReserve(frameBytes, wakeUp)) {
            heldFrom = from;
            held = frameBytes;
        } else if (authenticated) {
            gate.pause();
        } else {
            from.cancel(wakeUp);
            throw new ProtocolException(Errors.INVALID_REQUEST, "unauthenticated connections already hold "
                    + from.reserved() + " bytes of partial frames, the most they may (a frame of " + frameBytes
                    + " bytes refused)");
        }
    }

    /** From another connection's thread, once bytes were released: retry on this connection's own. */
    private void wakeUp() {
        try {
            ctx.executor().execute(gate::resume);
        } catch (RejectedExecutionException e) {
            // the broker is stopping and its event loops with it: nothing is left to resume
        }
    }

    private void release() {
        if (heldFrom != null) {
            heldFrom.release(held);
            heldFrom = null;
            held = 0;
        }
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        if (budget != null) {
            budget.cancel(wakeUp);
        }
        release();
    }
}
