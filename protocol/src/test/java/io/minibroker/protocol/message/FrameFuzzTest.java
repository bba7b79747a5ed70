package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * Random and mutated frames: decoding either succeeds or throws {@link ProtocolException}, never anything
 * else, and never allocates far beyond what the frame's size could justify.
 */
class FrameFuzzTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    /** Decoded objects (boxed values, lists, default-filled structs) cost more than the bytes they came from. */
    private static final long ALLOCATION_PER_FRAME_BYTE = 128;
    private static final long ALLOCATION_BASELINE = 16 * 1024;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Property(tries = 2000)
    void randomBytesNeverEscapeAsOtherExceptions(@ForAll @Size(max = 200) byte[] frame) {
        decodeSafely(frame);
    }

    @Property(tries = 2000)
    void randomBodiesBehindValidHeadersNeverEscape(@ForAll("apis") ApiKey api, @ForAll @IntRange(min = 0, max = 20) int versionOffset,
                                                  @ForAll @Size(max = 120) byte[] body) {
        short version = (short) Math.min(api.highestVersion(), api.lowestVersion() + versionOffset);
        ByteBuf frame = Unpooled.buffer();
        new RequestHeader(api.id(), version, 1, "fuzz").write(frame, RequestHeader.headerVersion(api, version));
        frame.writeBytes(body);
        decodeSafely(ByteBufUtil.getBytes(frame));
    }

    @Property(tries = 3000)
    void mutatedValidFramesNeverEscape(@ForAll("apis") ApiKey api, @ForAll @IntRange(min = 0, max = 20) int versionOffset,
                                       @ForAll long seed) {
        short version = (short) Math.min(api.highestVersion(), api.lowestVersion() + versionOffset);
        Struct body = new RandomStructs(seed).fill(api.request().body(), version, 0);
        ByteBuf encoded = MessageCodec.encodeRequest(ALLOC, new RequestHeader(api.id(), version, 1, "fuzz"), body);
        byte[] frame = ByteBufUtil.getBytes(encoded, Frames.SIZE_PREFIX_BYTES, encoded.readableBytes() - Frames.SIZE_PREFIX_BYTES);
        encoded.release();
        decodeSafely(mutate(frame, new Random(seed)));
    }

    /**
     * Every prefix of a valid frame of every API and version: cut anywhere, even right before a nullable struct's
     * marker byte (StreamsGroupHeartbeat's Topology), it decodes or is refused, deterministically.
     */
    @Test
    void everyTruncationOfAValidFrameIsRefusedOrDecoded() {
        for (ApiKey api : ApiKey.values()) {
            for (short version = api.lowestVersion(); version <= api.highestVersion(); version++) {
                Struct body = new RandomStructs(version).fill(api.request().body(), version, 0);
                ByteBuf encoded = MessageCodec.encodeRequest(ALLOC, new RequestHeader(api.id(), version, 1, "cut"),
                        body);
                byte[] frame = ByteBufUtil.getBytes(encoded, Frames.SIZE_PREFIX_BYTES,
                        encoded.readableBytes() - Frames.SIZE_PREFIX_BYTES);
                encoded.release();
                for (int length = 0; length < frame.length; length++) {
                    decodeOnce(java.util.Arrays.copyOf(frame, length));
                }
            }
        }
    }

    static byte[] mutate(byte[] frame, Random random) {
        byte[] out = frame.clone();
        int mutations = 1 + random.nextInt(4);
        for (int m = 0; m < mutations && out.length > 0; m++) {
            int at = random.nextInt(out.length);
            switch (random.nextInt(4)) {
                case 0:
                    out[at] ^= (byte) (1 << random.nextInt(8));
                    break;
                case 1:
                    out[at] = (byte) (random.nextBoolean() ? 0xff : 0x7f);
                    break;
                case 2:
                    out = java.util.Arrays.copyOf(out, at);
                    break;
                default:
                    byte[] extra = new byte[1 + random.nextInt(8)];
                    random.nextBytes(extra);
                    byte[] longer = java.util.Arrays.copyOf(out, out.length + extra.length);
                    System.arraycopy(extra, 0, longer, out.length, extra.length);
                    out = longer;
            }
        }
        return out;
    }

    private static void decodeSafely(byte[] frame) {
        decodeOnce(frame);
        // Measured on a second pass: the first run of a code path also pays one-time JVM costs (class
        // initialisation, string-concatenation bootstraps) that say nothing about the frame.
        long thread = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(thread);
        decodeOnce(frame);
        long allocated = THREADS.getThreadAllocatedBytes(thread) - before;
        assertThat(allocated).as("allocated for a frame of " + frame.length + " bytes")
                .isLessThan(ALLOCATION_BASELINE + ALLOCATION_PER_FRAME_BYTE * frame.length);
    }

    private static void decodeOnce(byte[] frame) {
        try {
            Request request = MessageCodec.decodeRequest(Unpooled.wrappedBuffer(frame));
            assertThat(request.body()).isNotNull();
        } catch (ProtocolException expected) {
            assertThat(expected.error()).isNotNull();
        }
    }

    @Provide
    Arbitrary<ApiKey> apis() {
        return Arbitraries.of(List.of(ApiKey.values()));
    }
}
