package io.minibroker.broker.network;

import io.minibroker.protocol.frame.Frames;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Bytes to frames: cuts the stream at Kafka's 4-byte size prefixes. The announced size is checked against
 * {@code socket.request.max.bytes} before anything is buffered for it, so a peer announcing gigabytes is
 * disconnected at once instead of being waited for; the error reaches {@link RequestHandler#exceptionCaught}.
 */
public final class FrameDecoder extends ByteToMessageDecoder {

    private final int maxFrameBytes;

    public FrameDecoder(int maxFrameBytes) {
        this.maxFrameBytes = maxFrameBytes;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        ByteBuf frame;
        while ((frame = Frames.readFrame(in, maxFrameBytes)) != null) {
            out.add(frame);
        }
    }
}
