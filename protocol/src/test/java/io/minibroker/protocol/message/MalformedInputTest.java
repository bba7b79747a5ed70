package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.lang.management.ManagementFactory;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/** One test per kind of bad input: each must end in the module's own exception, with a useful error. */
class MalformedInputTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    private static byte[] metadataRequestBody(short version) {
        Struct body = ApiKey.METADATA.request().newMessage();
        body.addElement("Topics").set("Name", "orders");
        ByteBuf frame = MessageCodec.encodeRequest(ALLOC, new RequestHeader(ApiKey.METADATA.id(), version, 1, "c"), body);
        byte[] bytes = ByteBufUtil.getBytes(frame, Frames.SIZE_PREFIX_BYTES, frame.readableBytes() - Frames.SIZE_PREFIX_BYTES);
        frame.release();
        return bytes;
    }

    @Test
    void everyTruncationOfAFrameFails() {
        for (short version : new short[] {0, 8, 9, 13}) {
            byte[] whole = metadataRequestBody(version);
            MessageCodec.decodeRequest(Unpooled.wrappedBuffer(whole));
            for (int length = 0; length < whole.length; length++) {
                ByteBuf truncated = Unpooled.wrappedBuffer(whole, 0, length);
                assertProtocolError(() -> MessageCodec.decodeRequest(truncated), Errors.INVALID_REQUEST);
            }
        }
    }

    @Test
    void negativeLengthsFail() {
        // Metadata v0 and v1: header, then the topics array (int32 count), each topic a string (int16 length). The
        // array is nullable from v1 on, where Kafka reads any negative count as null (LenientShapesKafkaTest).
        ByteBuf negativeArray = header(ApiKey.METADATA, 0).writeInt(-2);
        assertProtocolError(() -> MessageCodec.decodeRequest(negativeArray), Errors.INVALID_REQUEST);
        ByteBuf negativeString = header(ApiKey.METADATA, 1).writeInt(1).writeShort(-3);
        assertProtocolError(() -> MessageCodec.decodeRequest(negativeString), Errors.INVALID_REQUEST);
        ByteBuf nullInNonNullable = header(ApiKey.METADATA, 1).writeInt(1).writeShort(-1);
        assertProtocolError(() -> MessageCodec.decodeRequest(nullInNonNullable), Errors.INVALID_REQUEST);
        assertProtocolError(() -> Frames.readFrame(Unpooled.buffer().writeInt(-1).writeInt(0), 1024), Errors.INVALID_REQUEST);
    }

    @Test
    void oversizedFrameIsRefusedBeforeItArrives() {
        assertProtocolError(() -> Frames.readFrame(Unpooled.buffer().writeInt(100_000_000), 1 << 20), Errors.INVALID_REQUEST);
    }

    @Test
    void unknownApiKeyFails() {
        ByteBuf frame = Unpooled.buffer().writeShort(999).writeShort(0).writeInt(1).writeShort(-1);
        assertProtocolError(() -> MessageCodec.decodeRequest(frame), Errors.INVALID_REQUEST);
        ByteBuf negative = Unpooled.buffer().writeShort(-1).writeShort(0).writeInt(1).writeShort(-1);
        assertProtocolError(() -> MessageCodec.decodeRequest(negative), Errors.INVALID_REQUEST);
    }

    @Test
    void unknownVersionsFail() {
        ByteBuf tooNew = header(ApiKey.METADATA, 99).writeByte(0);
        assertProtocolError(() -> MessageCodec.decodeRequest(tooNew), Errors.UNSUPPORTED_VERSION);
        ByteBuf tooOld = header(ApiKey.PRODUCE, 2).writeShort(-1).writeShort(1).writeInt(1000).writeInt(0);
        assertProtocolError(() -> MessageCodec.decodeRequest(tooOld), Errors.UNSUPPORTED_VERSION);
        ByteBuf negative = Unpooled.buffer().writeShort(ApiKey.METADATA.id()).writeShort(-4).writeInt(1).writeShort(-1);
        assertProtocolError(() -> MessageCodec.decodeRequest(negative), Errors.UNSUPPORTED_VERSION);
        assertProtocolError(() -> ApiKey.METADATA.response().write(Unpooled.buffer(), ApiKey.METADATA.response().newMessage(), (short) 14),
                Errors.UNSUPPORTED_VERSION);
    }

    @Test
    void oversizedStringsFailBothWays() {
        ByteBuf tooLong = header(ApiKey.METADATA, 1).writeInt(1).writeShort(0x7fff).writeZero(0x7fff);
        MessageCodec.decodeRequest(tooLong);
        // Compact strings can announce more than int16 allows; Kafka refuses those, and so do we.
        ByteBuf compact = header(ApiKey.METADATA, 9);
        io.minibroker.protocol.types.Wire.writeUnsignedVarint(compact, 2);
        compact.writeZero(16);
        io.minibroker.protocol.types.Wire.writeUnsignedVarint(compact, 40_001);
        compact.writeZero(40_000);
        assertProtocolError(() -> MessageCodec.decodeRequest(compact), Errors.INVALID_REQUEST);

        Struct body = ApiKey.METADATA.request().newMessage();
        body.addElement("Topics").set("Name", "x".repeat(40_000));
        assertProtocolError(() -> MessageCodec.encodeRequest(ALLOC, new RequestHeader(ApiKey.METADATA.id(), (short) 1, 1, "c"), body),
                Errors.CORRUPT_MESSAGE);
    }

    @Test
    void hugeArrayCountInATinyFrameFailsBeforeAllocating() {
        ByteBuf frame = header(ApiKey.METADATA, 1).writeInt(Integer.MAX_VALUE).writeShort(0);
        assertThat(frame.readableBytes()).isLessThanOrEqualTo(20);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long thread = Thread.currentThread().getId();
        // A first pass pays one-time JVM costs on this path (class initialisation, string concatenation
        // bootstraps); the second shows what rejecting the frame itself costs.
        assertProtocolError(() -> MessageCodec.decodeRequest(frame.duplicate()), Errors.INVALID_REQUEST);
        long before = threads.getThreadAllocatedBytes(thread);
        assertProtocolError(() -> MessageCodec.decodeRequest(frame), Errors.INVALID_REQUEST);
        long allocated = threads.getThreadAllocatedBytes(thread) - before;
        assertThat(allocated).as("bytes allocated while rejecting").isLessThan(16 * 1024);
    }

    private static ByteBuf header(ApiKey api, int version) {
        ByteBuf buf = Unpooled.buffer();
        new RequestHeader(api.id(), (short) version, 1, "c").write(buf, RequestHeader.headerVersion(api, (short) version));
        return buf;
    }

    private static void assertProtocolError(ThrowingCallable call, Errors expected) {
        assertThatThrownBy(call).isInstanceOf(ProtocolException.class).satisfies(e -> {
            if (expected != null) {
                assertThat(((ProtocolException) e).error()).isEqualTo(expected);
            }
        });
    }
}
