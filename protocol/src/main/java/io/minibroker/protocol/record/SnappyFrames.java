package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import org.xerial.snappy.Snappy;
import org.xerial.snappy.SnappyError;

/**
 * Reads snappy-java's stream framing, which Kafka's clients write for snappy batches:
 *
 * <pre>
 *   82 'S' 'N' 'A' 'P' 'P' 'Y' 00 | version int32 | compatible version int32 | (length int32 | raw snappy block)...
 * </pre>
 * Input without that header is one raw snappy block, which snappy-java's reader (and so Kafka) accepts
 * too. This reader exists, rather than snappy-java's stream, so that each block's declared sizes are
 * checked against the bytes present and the decompression limit before anything is allocated.
 */
final class SnappyFrames {
    private static final byte[] MAGIC = {(byte) 0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0};
    private static final int HEADER_BYTES = MAGIC.length + 8;

    private SnappyFrames() {
    }

    /** The framing read chunk by chunk, so that a caller may hold one chunk's content at a time. */
    static final class Reader implements PlainChunks {
        private final ByteBuf in;
        private final boolean framed;
        private int position;
        private final int end;
        private boolean rawBlockRead;

        Reader(ByteBuf in) {
            this.in = in;
            this.framed = hasMagic(in);
            this.position = in.readerIndex() + (framed ? HEADER_BYTES : 0);
            this.end = in.writerIndex();
        }

        /** Appends the next chunk's content to {@code out}, which may then hold at most {@code maxBytes}. */
        @Override
        public boolean readBlock(ByteBuf out, int maxBytes) {
            if (!framed) { // one raw block, read once (an empty one is refused as snappy-java refuses it)
                if (rawBlockRead) {
                    return false;
                }
                rawBlockRead = true;
                decompressBlock(in, position, end - position, out, maxBytes);
                return true;
            }
            if (position >= end) {
                return false;
            }
            if (end - position < 4) {
                throw corrupt("snappy chunk header truncated");
            }
            int length = in.getInt(position);
            position += 4;
            if (length < 0 || length > end - position) {
                throw corrupt("snappy chunk of " + length + " bytes with " + (end - position) + " left");
            }
            decompressBlock(in, position, length, out, maxBytes);
            position += length;
            return true;
        }
    }

    private static boolean hasMagic(ByteBuf in) {
        if (in.readableBytes() < HEADER_BYTES) {
            return false;
        }
        for (int i = 0; i < MAGIC.length; i++) {
            if (in.getByte(in.readerIndex() + i) != MAGIC[i]) {
                return false;
            }
        }
        return true;
    }

    private static void decompressBlock(ByteBuf in, int index, int length, ByteBuf out, int maxBytes) {
        byte[] block = ByteBufUtil.getBytes(in, index, length);
        try {
            int size = Snappy.uncompressedLength(block, 0, length);
            if (size < 0 || size > maxBytes - out.readableBytes()) {
                throw corrupt("snappy block of " + size + " bytes exceeds the decompression limit of " + maxBytes);
            }
            out.ensureWritable(size);
            if (out.hasArray()) {
                int produced = Snappy.uncompress(block, 0, length, out.array(), out.arrayOffset() + out.writerIndex());
                out.writerIndex(out.writerIndex() + produced);
            } else {
                byte[] target = new byte[size];
                int produced = Snappy.uncompress(block, 0, length, target, 0);
                out.writeBytes(target, 0, produced);
            }
        } catch (IOException | SnappyError e) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "bad snappy block: " + e.getMessage(), e);
        }
    }

    private static ProtocolException corrupt(String message) {
        return new ProtocolException(Errors.CORRUPT_MESSAGE, message);
    }
}
