package io.minibroker.protocol.record;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.ZstdOutputStreamNoFinalizer;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.xerial.snappy.SnappyOutputStream;

/**
 * Compresses and decompresses the records section of a batch. Snappy uses snappy-java's stream framing
 * (see {@link SnappyFrames}) because that is what Kafka's clients write.
 */
final class Codecs {
    private static final int COPY_CHUNK = 8 * 1024;

    private Codecs() {
    }

    /** Appends the decompressed form of {@code compressed}'s readable bytes to {@code out}. */
    static void decompress(CompressionType type, ByteBuf compressed, ByteBuf out, int maxBytes) {
        try (PlainChunks chunks = chunks(type, compressed)) {
            while (chunks.readBlock(out, maxBytes)) {
                // each piece appends to out
            }
        }
    }

    /** {@code compressed}'s readable bytes, to be decompressed a piece at a time; the caller closes it. */
    static PlainChunks chunks(CompressionType type, ByteBuf compressed) {
        switch (type) {
            case LZ4:
                return new Lz4Frame.Reader(compressed);
            case SNAPPY:
                return new SnappyFrames.Reader(compressed);
            default:
                return new StreamChunks(type, compressed);
        }
    }

    /** A gzip or zstd stream, read a slice at a time. */
    private static final class StreamChunks implements PlainChunks {
        private final CompressionType type;
        private final InputStream in;

        StreamChunks(CompressionType type, ByteBuf compressed) {
            this.type = type;
            try {
                this.in = open(type, new ByteBufInputStream(compressed.duplicate()));
            } catch (IOException | RuntimeException e) {
                throw corrupt(type, e);
            }
        }

        @Override
        public boolean readBlock(ByteBuf out, int maxBytes) {
            // The codec libraries signal corrupt input with assorted runtime exceptions of their own as well as
            // IOExceptions; all of them mean the batch is corrupt.
            try {
                if (out.readableBytes() >= maxBytes) {
                    if (in.read() >= 0) {
                        throw new ProtocolException(Errors.CORRUPT_MESSAGE,
                                "decompressed batch exceeds " + maxBytes + " bytes");
                    }
                    return false;
                }
                out.ensureWritable(Math.min(COPY_CHUNK, maxBytes - out.readableBytes()));
                return out.writeBytes(in, Math.min(out.writableBytes(), maxBytes - out.readableBytes())) >= 0;
            } catch (IOException | RuntimeException e) {
                throw corrupt(type, e);
            }
        }

        @Override
        public void close() {
            try {
                in.close();
            } catch (IOException e) {
                throw corrupt(type, e);
            }
        }
    }

    private static ProtocolException corrupt(CompressionType type, Exception e) {
        return e instanceof ProtocolException protocol ? protocol
                : new ProtocolException(Errors.CORRUPT_MESSAGE, type + " decompression failed: " + e.getMessage(), e);
    }

    private static InputStream open(CompressionType type, InputStream in) throws IOException {
        switch (type) {
            case GZIP:
                return new GZIPInputStream(in, COPY_CHUNK);
            case ZSTD:
                return new ZstdInputStreamNoFinalizer(in);
            default:
                throw new IllegalArgumentException("not a stream codec: " + type);
        }
    }

    /** Appends the compressed form of {@code plain}'s readable bytes to {@code out}. */
    static void compress(CompressionType type, ByteBuf plain, ByteBuf out) {
        if (type == CompressionType.LZ4) {
            Lz4Frame.compress(plain, out);
            return;
        }
        try (OutputStream stream = create(type, new ByteBufOutputStream(out))) {
            plain.getBytes(plain.readerIndex(), stream, plain.readableBytes());
        } catch (IOException e) {
            throw new IllegalStateException(type + " compression failed", e);
        }
    }

    private static OutputStream create(CompressionType type, OutputStream out) throws IOException {
        switch (type) {
            case GZIP:
                return new GZIPOutputStream(out, COPY_CHUNK);
            case SNAPPY:
                return new SnappyOutputStream(out);
            case ZSTD:
                return new ZstdOutputStreamNoFinalizer(out);
            default:
                throw new IllegalArgumentException("not a stream codec: " + type);
        }
    }
}
