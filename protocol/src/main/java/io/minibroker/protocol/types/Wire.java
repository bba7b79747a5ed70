package io.minibroker.protocol.types;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Reads and writes Kafka's primitive wire types on a {@link ByteBuf}, big-endian. Every read checks the
 * readable bytes first and fails with {@link ProtocolException}, so a malformed frame can never cause an
 * {@code IndexOutOfBoundsException} or an allocation larger than the frame itself.
 *
 * <p>Variable-length integers use 7 bits per byte, least significant group first, with the high bit set
 * on every byte but the last: 300 = 0b1_0010_1100 is written {@code AC 02}. Signed varints are
 * zig-zag encoded first so that small negative numbers stay short: -1 becomes 1, 1 becomes 2.
 */
public final class Wire {
    /** Kafka caps string lengths at what a signed 16-bit length can express, in both encodings. */
    public static final int MAX_STRING_BYTES = Short.MAX_VALUE;

    private static final int MAX_VARINT_BYTES = 5;
    private static final int MAX_VARLONG_BYTES = 10;

    private Wire() {
    }

    public static void require(ByteBuf in, int bytes, String what) {
        if (bytes < 0 || in.readableBytes() < bytes) {
            throw new ProtocolException("truncated " + what + ": need " + bytes + " bytes, have " + in.readableBytes());
        }
    }

    public static byte readInt8(ByteBuf in) {
        require(in, 1, "int8");
        return in.readByte();
    }

    public static short readInt16(ByteBuf in) {
        require(in, 2, "int16");
        return in.readShort();
    }

    public static int readInt32(ByteBuf in) {
        require(in, 4, "int32");
        return in.readInt();
    }

    public static long readInt64(ByteBuf in) {
        require(in, 8, "int64");
        return in.readLong();
    }

    public static int readUint16(ByteBuf in) {
        require(in, 2, "uint16");
        return in.readUnsignedShort();
    }

    public static long readUint32(ByteBuf in) {
        require(in, 4, "uint32");
        return in.readUnsignedInt();
    }

    public static double readFloat64(ByteBuf in) {
        require(in, 8, "float64");
        return in.readDouble();
    }

    /** Kafka writes booleans as one byte and reads any non-zero byte as true. */
    public static boolean readBoolean(ByteBuf in) {
        require(in, 1, "boolean");
        return in.readByte() != 0;
    }

    public static UUID readUuid(ByteBuf in) {
        require(in, 16, "uuid");
        return new UUID(in.readLong(), in.readLong());
    }

    /**
     * Reads at most five bytes. Bits of the fifth past the 32nd are dropped, not refused, as Kafka's ByteUtils
     * drops them: only a fifth byte that announces a sixth is refused.
     */
    public static int readUnsignedVarint(ByteBuf in) {
        int value = 0;
        for (int i = 0; i < MAX_VARINT_BYTES; i++) {
            require(in, 1, "varint");
            byte b = in.readByte();
            value |= (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new ProtocolException("varint of more than five bytes");
    }

    /**
     * Skips a tagged-field section (a count, then each field's tag, size and bytes), as a reader of a record that
     * a later version of Kafka may have added fields to does; a field that runs past the buffer's end is refused.
     */
    public static void skipTaggedFields(ByteBuf in) {
        int count = readUnsignedVarint(in);
        for (int i = 0; i < count; i++) {
            readUnsignedVarint(in); // the tag
            int size = readUnsignedVarint(in);
            require(in, size, "tagged field");
            in.skipBytes(size);
        }
    }

    /** Reads at most ten bytes; as for {@link #readUnsignedVarint}, bits of the last past the 64th are dropped. */
    public static long readUnsignedVarlong(ByteBuf in) {
        long value = 0;
        for (int i = 0; i < MAX_VARLONG_BYTES; i++) {
            require(in, 1, "varlong");
            byte b = in.readByte();
            value |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0) {
                return value;
            }
        }
        throw new ProtocolException("varlong of more than ten bytes");
    }

    public static int readVarint(ByteBuf in) {
        int raw = readUnsignedVarint(in);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public static long readVarlong(ByteBuf in) {
        long raw = readUnsignedVarlong(in);
        return (raw >>> 1) ^ -(raw & 1);
    }

    public static void writeUnsignedVarint(ByteBuf out, int value) {
        while ((value & ~0x7f) != 0) {
            out.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte(value);
    }

    public static void writeUnsignedVarlong(ByteBuf out, long value) {
        while ((value & ~0x7fL) != 0) {
            out.writeByte((int) (value & 0x7f) | 0x80);
            value >>>= 7;
        }
        out.writeByte((int) value);
    }

    public static void writeVarint(ByteBuf out, int value) {
        writeUnsignedVarint(out, (value << 1) ^ (value >> 31));
    }

    public static void writeVarlong(ByteBuf out, long value) {
        writeUnsignedVarlong(out, (value << 1) ^ (value >> 63));
    }

    public static int sizeOfUnsignedVarint(int value) {
        int bits = 32 - Integer.numberOfLeadingZeros(value);
        return bits == 0 ? 1 : (bits + 6) / 7;
    }

    public static int sizeOfUnsignedVarlong(long value) {
        int bits = 64 - Long.numberOfLeadingZeros(value);
        return bits == 0 ? 1 : (bits + 6) / 7;
    }

    public static int sizeOfVarint(int value) {
        return sizeOfUnsignedVarint((value << 1) ^ (value >> 31));
    }

    public static int sizeOfVarlong(long value) {
        return sizeOfUnsignedVarlong((value << 1) ^ (value >> 63));
    }

    public static void writeUuid(ByteBuf out, UUID uuid) {
        out.writeLong(uuid.getMostSignificantBits());
        out.writeLong(uuid.getLeastSignificantBits());
    }

    /**
     * Reads the length prefix of a string, bytes or array field: an int16 or int32 in classic encoding, or
     * an unsigned varint holding length + 1 in compact encoding. Returns -1 for null.
     */
    public static int readLength(ByteBuf in, boolean compact, boolean wide) {
        if (compact) {
            return readUnsignedVarint(in) - 1;
        }
        return wide ? readInt32(in) : readInt16(in);
    }

    public static void writeLength(ByteBuf out, int length, boolean compact, boolean wide) {
        if (compact) {
            writeUnsignedVarint(out, length + 1);
        } else if (wide) {
            out.writeInt(length);
        } else {
            out.writeShort(length);
        }
    }

    public static int sizeOfLength(int length, boolean compact, boolean wide) {
        if (compact) {
            return sizeOfUnsignedVarint(length + 1);
        }
        return wide ? 4 : 2;
    }

    /** Decodes {@code length} bytes of UTF-8 after checking they are present. */
    public static String readUtf8(ByteBuf in, int length) {
        if (length > MAX_STRING_BYTES) {
            throw new ProtocolException("string of " + length + " bytes exceeds " + MAX_STRING_BYTES);
        }
        require(in, length, "string");
        String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return s;
    }
}
