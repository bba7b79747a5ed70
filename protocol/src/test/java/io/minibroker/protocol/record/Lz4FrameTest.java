package io.minibroker.protocol.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Random;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import org.junit.jupiter.api.Test;

/** Our LZ4 frame reader and writer against lz4-java's reference implementation of the frame format. */
class Lz4FrameTest {
    private static byte[] content(int size) {
        byte[] data = new byte[size];
        Random random = new Random(size);
        for (int i = 0; i < size; i++) {
            data[i] = (byte) (i % 7 == 0 ? random.nextInt() : i % 13);
        }
        return data;
    }

    @Test
    void readsFramesWithOptionalChecksumsAndContentSize() throws IOException {
        byte[] data = content(300_000);
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(compressed, LZ4FrameOutputStream.BLOCKSIZE.SIZE_256KB, data.length,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE, LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM,
                LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM, LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE)) {
            out.write(data);
        }
        ByteBuf plain = Unpooled.buffer();
        Codecs.decompress(CompressionType.LZ4, Unpooled.wrappedBuffer(compressed.toByteArray()), plain,
                Integer.MAX_VALUE);
        assertThat(ByteBufUtil.getBytes(plain)).isEqualTo(data);
    }

    @Test
    void referenceReaderReadsWhatWeWrite() throws IOException {
        for (int size : new int[] {0, 1, 65_536, 65_537, 200_000}) {
            byte[] data = content(size);
            ByteBuf compressed = Unpooled.buffer();
            Lz4Frame.compress(Unpooled.wrappedBuffer(data), compressed);
            assertThat(ByteBufUtil.hexDump(compressed, 0, 7)).isEqualTo("04224d18604082");
            try (LZ4FrameInputStream in = new LZ4FrameInputStream(new java.io.ByteArrayInputStream(ByteBufUtil.getBytes(compressed)))) {
                assertThat(in.readAllBytes()).isEqualTo(data);
            }
        }
    }

    @Test
    void corruptDescriptorChecksumAndBlockChecksumFail() throws IOException {
        ByteBuf good = Unpooled.buffer();
        Lz4Frame.compress(Unpooled.wrappedBuffer(content(1000)), good);
        byte[] badHc = ByteBufUtil.getBytes(good);
        badHc[6] ^= 1;
        assertThatThrownBy(() -> Codecs.decompress(CompressionType.LZ4, Unpooled.wrappedBuffer(badHc),
                Unpooled.buffer(), 1 << 20))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("descriptor checksum");

        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(compressed, LZ4FrameOutputStream.BLOCKSIZE.SIZE_64KB,
                LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE, LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM)) {
            out.write(content(1000));
        }
        byte[] badBlock = compressed.toByteArray();
        badBlock[12] ^= 1;
        assertThatThrownBy(() -> Codecs.decompress(CompressionType.LZ4, Unpooled.wrappedBuffer(badBlock),
                Unpooled.buffer(), 1 << 20))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("block checksum");
    }

    @Test
    void decompressionStopsAtTheLimit() {
        ByteBuf compressed = Unpooled.buffer();
        Lz4Frame.compress(Unpooled.wrappedBuffer(new byte[200_000]), compressed);
        assertThatThrownBy(() -> Codecs.decompress(CompressionType.LZ4, compressed, Unpooled.buffer(), 100_000))
                .isInstanceOf(ProtocolException.class);
    }
}
