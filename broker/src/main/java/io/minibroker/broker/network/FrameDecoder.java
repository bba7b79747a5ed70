package io.minibroker.broker.network;

import io.minibroker.protocol.frame.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;
import java.util.function.IntSupplier;

/**
 * Bytes to frames: cuts the stream at Kafka's 4-byte size prefixes. The announced size is checked against the
 * connection's limit before anything is buffered for it, so a peer announcing gigabytes is disconnected at once
 * instead of being waited for; the error reaches {@link RequestHandler#exceptionCaught}. The limit is
 * {@code socket.request.max.bytes}, and on a SASL_PLAINTEXT connection that has not authenticated yet
 * {@code sasl.server.max.receive.size} (512 KiB), as in Kafka, so that a client without credentials cannot make
 * the broker hold a large frame.
 *
 * <p>One frame a call (Netty calls again while bytes remain), so each frame is checked against the limit in force
 * once the frames before it were handled: a request right behind a SaslAuthenticate is held to the larger one.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private final IntSupplier maxFrameBytes;

    public FrameDecoder(int maxFrameBytes) {
        this(() -> maxFrameBytes);
    }

    public FrameDecoder(IntSupplier maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ByteBuf frame = Frames.readFrame(in, maxFrameBytes.getAsInt());
        if (frame != null) {
            out.add(frame);
        }
    }
}
