package io.minibroker.protocol.record;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;
import net.jpountz.xxhash.XXHash32;
import net.jpountz.xxhash.XXHashFactory;

/**
 * The LZ4 frame format as Kafka uses it for magic 2 batches: one frame of independently compressed blocks.
 *
 * <pre>
 *   magic 04 22 4D 18 | FLG | BD | [content size, 8 bytes] | HC | blocks... | 00000000 | [content checksum]
 *   block: little-endian int32 size (high bit set = stored uncompressed) | data | [xxhash32 of data]
 * </pre>
 * FLG must say version 01 and independent blocks; BD gives the largest block (64 KB to 4 MB); HC is the
 * second byte of the xxhash32 of the descriptor (FLG up to HC). A typical Kafka frame starts
 * {@code 04 22 4D 18 60 40 82}: version 1, independent blocks, no checksums, 64 KB blocks. Older Kafka
 * clients hashed the magic into HC too, but only for magic 0 batches, which this broker rejects anyway.
 * The content checksum, when a writer sets one, is skipped rather than checked: writers disagree on how
 * to compute it, and the batch CRC already covers the compressed bytes.
 */
final class Lz4Frame {
    private static final int MAGIC = 0x184D2204;
    private static final int FLG_VERSION_MASK = 0xC0;
    private static final int FLG_VERSION_1 = 0x40;
    private static final int FLG_BLOCK_INDEPENDENCE = 0x20;
    private static final int FLG_BLOCK_CHECKSUM = 0x10;
    private static final int FLG_CONTENT_SIZE = 0x08;
    private static final int FLG_CONTENT_CHECKSUM = 0x04;
    private static final int FLG_RESERVED = 0x02;
    private static final int FLG_DICTIONARY = 0x01;
    private static final int UNCOMPRESSED_BLOCK = 0x8000_0000;
    private static final int WRITE_BLOCK_BYTES = 64 * 1024;
    private static final int BD_64KB = 4 << 4;

    private static final LZ4SafeDecompressor DECOMPRESSOR = LZ4Factory.fastestInstance().safeDecompressor();
    private static final LZ4Compressor COMPRESSOR = LZ4Factory.fastestInstance().fastCompressor();
    private static final XXHash32 XXHASH = XXHashFactory.fastestInstance().hash32();

    private Lz4Frame() {
    }

    /**
     * A frame read block by block: the descriptor is checked when the reader is made, and each
     * {@link #readBlock} appends one block's content, so a caller may hold one block at a time.
     */
    static final class Reader implements PlainChunks {
        private final ByteBuf frame;
        private final int maxBlockBytes;
        private final boolean blockChecksums;
        private final boolean contentChecksum;
        private boolean ended;

        Reader(ByteBuf in) {
            frame = in.duplicate();
            require(frame, 7);
            if (frame.readIntLE() != MAGIC) {
                throw corrupt("bad LZ4 frame magic");
            }
            int descriptorStart = frame.readerIndex();
            int flg = frame.readUnsignedByte();
            int bd = frame.readUnsignedByte();
            if ((flg & FLG_VERSION_MASK) != FLG_VERSION_1 || (flg & (FLG_RESERVED | FLG_DICTIONARY)) != 0) {
                throw corrupt("unsupported LZ4 frame flags " + Integer.toHexString(flg));
            }
            if ((flg & FLG_BLOCK_INDEPENDENCE) == 0) {
                throw corrupt("dependent LZ4 blocks are not supported");
            }
            if ((bd & 0x8F) != 0 || ((bd >> 4) & 7) < 4) {
                throw corrupt("bad LZ4 block descriptor " + Integer.toHexString(bd));
            }
            maxBlockBytes = 1 << (8 + 2 * ((bd >> 4) & 7));
            if ((flg & FLG_CONTENT_SIZE) != 0) {
                require(frame, 8);
                frame.skipBytes(8);
            }
            int descriptorLength = frame.readerIndex() - descriptorStart;
            require(frame, 1);
            int expectedHc = (hash(frame, descriptorStart, descriptorLength) >> 8) & 0xFF;
            if (frame.readUnsignedByte() != expectedHc) {
                throw corrupt("LZ4 frame descriptor checksum mismatch");
            }
            blockChecksums = (flg & FLG_BLOCK_CHECKSUM) != 0;
            contentChecksum = (flg & FLG_CONTENT_CHECKSUM) != 0;
        }

        /**
         * Appends the next block's content to {@code out}, which may then hold at most {@code maxBytes}; false once
         * the end mark is read.
         */
        @Override
        public boolean readBlock(ByteBuf out, int maxBytes) {
            if (ended) {
                return false;
            }
            require(frame, 4);
            int header = frame.readIntLE();
            int size = header & ~UNCOMPRESSED_BLOCK;
            if (size == 0) {
                ended = true;
                if (contentChecksum) {
                    require(frame, 4);
                }
                return false;
            }
            if (size > maxBlockBytes) {
                throw corrupt("LZ4 block of " + size + " bytes exceeds " + maxBlockBytes);
            }
            require(frame, size + (blockChecksums ? 4 : 0));
            int blockStart = frame.readerIndex();
            if (blockChecksums && hash(frame, blockStart, size) != frame.getIntLE(blockStart + size)) {
                throw corrupt("LZ4 block checksum mismatch");
            }
            if ((header & UNCOMPRESSED_BLOCK) != 0) {
                checkLimit(out, size, maxBytes);
                out.writeBytes(frame, blockStart, size);
            } else {
                checkLimit(out, 1, maxBytes);
                decompressBlock(frame, blockStart, size, out, Math.min(maxBlockBytes, maxBytes - out.readableBytes()));
            }
            frame.skipBytes(size + (blockChecksums ? 4 : 0));
            return true;
        }
    }

    private static void decompressBlock(ByteBuf frame, int start, int size, ByteBuf out, int room) {
        out.ensureWritable(room);
        ByteBuffer src = frame.nioBuffer(start, size);
        ByteBuffer dst = out.nioBuffer(out.writerIndex(), room);
        try {
            int produced = DECOMPRESSOR.decompress(src, src.position(), size, dst, dst.position(), room);
            out.writerIndex(out.writerIndex() + produced);
        } catch (LZ4Exception e) {
            throw new ProtocolException(Errors.CORRUPT_MESSAGE, "bad LZ4 block", e);
        }
    }

    /** Writes {@code in}'s readable bytes as one frame of 64 KB blocks, without checksums, as Kafka does. */
    static void compress(ByteBuf in, ByteBuf out) {
        out.writeIntLE(MAGIC);
        int flg = FLG_VERSION_1 | FLG_BLOCK_INDEPENDENCE;
        int descriptorStart = out.writerIndex();
        out.writeByte(flg);
        out.writeByte(BD_64KB);
        out.writeByte((hash(out, descriptorStart, 2) >> 8) & 0xFF);
        int bound = COMPRESSOR.maxCompressedLength(WRITE_BLOCK_BYTES);
        for (int pos = in.readerIndex(); pos < in.writerIndex(); pos += WRITE_BLOCK_BYTES) {
            int length = Math.min(WRITE_BLOCK_BYTES, in.writerIndex() - pos);
            out.ensureWritable(4 + bound);
            int sizeAt = out.writerIndex();
            ByteBuffer src = in.nioBuffer(pos, length);
            ByteBuffer dst = out.nioBuffer(sizeAt + 4, bound);
            int compressed = COMPRESSOR.compress(src, src.position(), length, dst, dst.position(), bound);
            if (compressed < length) {
                out.writeIntLE(compressed);
                out.writerIndex(sizeAt + 4 + compressed);
            } else {
                out.writeIntLE(length | UNCOMPRESSED_BLOCK);
                out.writeBytes(in, pos, length);
            }
        }
        out.writeIntLE(0);
    }

    private static int hash(ByteBuf buf, int index, int length) {
        ByteBuffer nio = buf.nioBuffer(index, length);
        return XXHASH.hash(nio, nio.position(), length, 0);
    }

    private static void checkLimit(ByteBuf out, int adding, int maxBytes) {
        if (adding > maxBytes - out.readableBytes()) {
            throw corrupt("decompressed batch exceeds " + maxBytes + " bytes");
        }
    }

    private static void require(ByteBuf frame, int bytes) {
        if (frame.readableBytes() < bytes) {
            throw corrupt("LZ4 frame ended prematurely");
        }
    }

    private static ProtocolException corrupt(String message) {
        return new ProtocolException(Errors.CORRUPT_MESSAGE, message);
    }
}
