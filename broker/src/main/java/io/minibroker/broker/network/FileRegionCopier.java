package io.minibroker.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.FileRegion;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;
import java.util.List;

/**
 * On a TLS connection only: turns the file regions of fetched records into buffers, since bytes sent with
 * {@code sendfile} would bypass the encryption (Netty's SslHandler takes buffers only). The copy is what Kafka's
 * SSL transport does too; plaintext connections keep their zero-copy path. The region is read on the event loop,
 * where a plaintext connection's {@code sendfile} reads it as well, and the buffer weighs the region's bytes on
 * the write watermarks ({@link SendfileAwareSizeEstimator} counted the region the same), so backpressure is
 * unchanged.
 */
final class FileRegionCopier extends MessageToMessageEncoder<FileRegion> {

    FileRegionCopier() {
        super(FileRegion.class);
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, FileRegion region, List<Object> out) throws IOException {
        int length = (int) (region.count() - region.transferred());
        ByteBuf copy = ctx.alloc().ioBuffer(length);
        try {
            WritableByteChannel into = new BufferChannel(copy);
            long done = region.transferred();
            while (done < region.count()) {
                long moved = region.transferTo(into, done);
                if (moved <= 0) {
                    throw new IOException("the segment file ended " + (region.count() - done) + " bytes early");
                }
                done += moved;
            }
            out.add(copy);
        } catch (IOException | RuntimeException e) {
            copy.release();
            throw e;
        }
    }

    /** The buffer as a channel to transfer the region into. */
    private static final class BufferChannel implements WritableByteChannel {
        private final ByteBuf buffer;

        BufferChannel(ByteBuf buffer) {
            this.buffer = buffer;
        }

        @Override
        public int write(ByteBuffer source) {
            int bytes = source.remaining();
            buffer.writeBytes(source);
            return bytes;
        }

        @Override
        public boolean isOpen() {
            return true;
        }

        @Override
        public void close() {
            // the buffer outlives the copy
        }
    }
}
