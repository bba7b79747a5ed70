package io.minibroker.protocol.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.ByteBuffer;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.apache.kafka.common.utils.internals.ByteUtils;
import org.junit.jupiter.api.Test;

class WireTest {
    @Property(tries = 300)
    void varintsMatchKafka(@ForAll int value) {
        ByteBuffer kafka = ByteBuffer.allocate(10);
        ByteUtils.writeVarint(value, kafka);
        kafka.flip();
        ByteBuf ours = Unpooled.buffer();
        Wire.writeVarint(ours, value);
        assertThat(ByteBufUtil.getBytes(ours)).isEqualTo(bytes(kafka));
        assertThat(Wire.sizeOfVarint(value)).isEqualTo(ByteUtils.sizeOfVarint(value));
        assertThat(Wire.readVarint(ours)).isEqualTo(value);
    }

    @Property(tries = 300)
    void unsignedVarintsMatchKafka(@ForAll int value) {
        ByteBuffer kafka = ByteBuffer.allocate(10);
        ByteUtils.writeUnsignedVarint(value, kafka);
        kafka.flip();
        ByteBuf ours = Unpooled.buffer();
        Wire.writeUnsignedVarint(ours, value);
        assertThat(ByteBufUtil.getBytes(ours)).isEqualTo(bytes(kafka));
        assertThat(Wire.sizeOfUnsignedVarint(value)).isEqualTo(ByteUtils.sizeOfUnsignedVarint(value));
        assertThat(Wire.readUnsignedVarint(ours)).isEqualTo(value);
    }

    @Property(tries = 300)
    void varlongsMatchKafka(@ForAll long value) {
        ByteBuffer kafka = ByteBuffer.allocate(10);
        ByteUtils.writeVarlong(value, kafka);
        kafka.flip();
        ByteBuf ours = Unpooled.buffer();
        Wire.writeVarlong(ours, value);
        assertThat(ByteBufUtil.getBytes(ours)).isEqualTo(bytes(kafka));
        assertThat(Wire.sizeOfVarlong(value)).isEqualTo(ByteUtils.sizeOfVarlong(value));
        assertThat(Wire.readVarlong(ours)).isEqualTo(value);
    }

    @Test
    void workedExampleFromTheClassComment() {
        ByteBuf buf = Unpooled.buffer();
        Wire.writeUnsignedVarint(buf, 300);
        assertThat(ByteBufUtil.hexDump(buf)).isEqualTo("ac02");
    }

    @Test
    void overlongVarintIsRejected() {
        ByteBuf six = Unpooled.wrappedBuffer(new byte[] {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01});
        assertThatThrownBy(() -> Wire.readUnsignedVarint(six)).isInstanceOf(ProtocolException.class);
        ByteBuf eleven = Unpooled.buffer();
        for (int i = 0; i < 10; i++) {
            eleven.writeByte(0x80);
        }
        eleven.writeByte(0x01);
        assertThatThrownBy(() -> Wire.readUnsignedVarlong(eleven)).isInstanceOf(ProtocolException.class);
    }

    /** A last byte carrying bits past the 32nd or 64th is read as Kafka reads it: those bits are dropped. */
    @Test
    void lastVarintBytesBitsPastTheWidthAreDroppedAsInKafka() {
        for (String hex : new String[] {"ffffffff7f", "8080808010", "ffffffff0f", "8180808070"}) {
            byte[] bytes = ByteBufUtil.decodeHexDump(hex);
            assertThat(Wire.readUnsignedVarint(Unpooled.wrappedBuffer(bytes))).as(hex)
                    .isEqualTo(ByteUtils.readUnsignedVarint(ByteBuffer.wrap(bytes)));
            assertThat(Wire.readVarint(Unpooled.wrappedBuffer(bytes))).as(hex)
                    .isEqualTo(ByteUtils.readVarint(ByteBuffer.wrap(bytes)));
        }
        for (String hex : new String[] {"ffffffffffffffffff7f", "80808080808080808002", "ffffffffffffffffff01"}) {
            byte[] bytes = ByteBufUtil.decodeHexDump(hex);
            assertThat(Wire.readVarlong(Unpooled.wrappedBuffer(bytes))).as(hex)
                    .isEqualTo(ByteUtils.readVarlong(ByteBuffer.wrap(bytes)));
        }
    }

    @Test
    void truncatedReadsFailWithProtocolException() {
        assertThatThrownBy(() -> Wire.readInt32(Unpooled.wrappedBuffer(new byte[3]))).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> Wire.readInt64(Unpooled.wrappedBuffer(new byte[7]))).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> Wire.readUuid(Unpooled.wrappedBuffer(new byte[15]))).isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> Wire.readUnsignedVarint(Unpooled.wrappedBuffer(new byte[] {(byte) 0x80})))
                .isInstanceOf(ProtocolException.class);
        assertThatThrownBy(() -> Wire.readUtf8(Unpooled.wrappedBuffer(new byte[3]), 4)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void unsignedTypesKeepTheirRange() {
        ByteBuf buf = Unpooled.wrappedBuffer(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff});
        assertThat(Wire.readUint16(buf)).isEqualTo(0xffff);
        assertThat(Wire.readUint32(buf)).isEqualTo(0xffff_ffffL);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }
}
