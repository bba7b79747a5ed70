package io.minibroker.broker.network;

import io.minibroker.broker.log.SegmentFileRegion;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToMessageEncoder;

import java.io.IOException;
import java.util.List;

/**
 * Turns the file regions of fetched records (the only file regions the broker writes) into buffers, read from the
 * segment with one positioned read, when the connection should not send them with {@code sendfile}:
 * <ul>
 *   <li>on a TLS connection, every region, since bytes sent with {@code sendfile} would bypass the encryption
 *       (Netty's SslHandler takes buffers only): the copy Kafka's SSL transport makes too;</li>
 *   <li>on a plaintext one, a region of at most {@link #SMALL_REGION_BYTES}: the answer's encoded head, its records
 *       and its tail are then consecutive buffers, which the transport writes with one gathering {@code writev},
 *       where a region costs a {@code write} of the head, the JDK's {@code fstat} of the file in
 *       {@code FileChannel.transferTo}, the {@code sendfile} and a {@code write} of the tail (the bytes after the
 *       records cannot join the head: they follow the records on the wire).</li>
 * </ul>
 * The region is read on the event loop as it is written, where {@code sendfile} reads it at the flush right after;
 * it holds the segment's file open until then, so a segment deleted since the read is read whole, and one truncated
 * under it fails the write (the connection closes) as a short {@code sendfile} does. The buffer weighs the region's
 * bytes on the write watermarks ({@link SendfileAwareSizeEstimator} counted the region the same), so backpressure is
 * unchanged.
 */
final class FileRegionCopier extends MessageToMessageEncoder<SegmentFileRegion> {

    /**
     * The largest record set a plaintext connection copies. Measured on loopback (a fetch answer of a 74-byte head,
     * the records and a 3-byte tail; the sender's thread CPU per answer, three rounds): the copy's two system calls
     * cost 3.5-7 µs up to 4 KB where the four of a {@code sendfile} cost 7-14, 7-8 against 9-10 µs at 16 KB; at 32
     * and 64 KB the copy is level or behind, and from 128 KB on it loses (its two passes over the bytes outweigh the
     * calls saved): docs/performance.md, "A small fetch answer in one write".
     */
    static final int SMALL_REGION_BYTES = 16 * 1024;

    private final long maxBytes;

    private FileRegionCopier(long maxBytes) {
        super(SegmentFileRegion.class);
        this.maxBytes = maxBytes;
    }

    /** For a TLS connection, which cannot send any region as it is. */
    static FileRegionCopier all() {
        return new FileRegionCopier(Long.MAX_VALUE);
    }

    /** For a plaintext connection: the regions a copy sends more cheaply than {@code sendfile}. */
    static FileRegionCopier small() {
        return new FileRegionCopier(SMALL_REGION_BYTES);
    }

    @Override
    public boolean acceptOutboundMessage(Object message) throws Exception {
        return super.acceptOutboundMessage(message)
                && ((SegmentFileRegion) message).count() - ((SegmentFileRegion) message).transferred() <= maxBytes;
    }

    @Override
    protected void encode(ChannelHandlerContext ctx, SegmentFileRegion region, List<Object> out) throws IOException {
        ByteBuf copy = ctx.alloc().ioBuffer((int) (region.count() - region.transferred()));
        try {
            region.readUnsentInto(copy);
            out.add(copy);
        } catch (IOException | RuntimeException e) {
            copy.release();
            throw e;
        }
    }
}
