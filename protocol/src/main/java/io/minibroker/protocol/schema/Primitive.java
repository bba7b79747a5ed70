package io.minibroker.protocol.schema;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * The scalar field types of Kafka message specs and the Java class each decodes to: int8 {@link Byte},
 * int16 {@link Short}, int32 and uint16 {@link Integer}, int64 and uint32 {@link Long}, float64
 * {@link Double}, bool {@link Boolean}, uuid {@link UUID}, string {@link String}, bytes {@code byte[]}.
 * The numeric ones (all up to bool) are those classes only when seen as objects: a {@link Struct} keeps them
 * unboxed in {@code long} slots ({@link #isNumeric}), read and written by {@link #readNumber} and
 * {@link #writeNumber}.
 * Records decode to a {@link ByteBuf} slice of the frame, not a copy: it is valid while the frame is; to
 * encode they may also be a {@link RecordsPayload}, whose bytes the transport sends.
 */
public enum Primitive implements FieldType {
    INT8(1, (byte) 0, Byte.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readInt8(in);
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            out.writeByte((int) value);
        }
    },
    INT16(2, (short) 0, Short.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readInt16(in);
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            out.writeShort((int) value);
        }
    },
    INT32(4, 0, Integer.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readInt32(in);
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            out.writeInt((int) value);
        }
    },
    INT64(8, 0L, Long.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readInt64(in);
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            out.writeLong(value);
        }
    },
    UINT16(2, 0, Integer.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readUint16(in);
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            if (value < 0 || value > 0xffff) {
                throw new ProtocolException("uint16 out of range: " + value);
            }
            out.writeShort((int) value);
        }
    },
    UINT32(4, 0L, Long.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readUint32(in);
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            if (value < 0 || value > 0xffff_ffffL) {
                throw new ProtocolException("uint32 out of range: " + value);
            }
            out.writeInt((int) value);
        }
    },
    /** Held in a number slot as its raw IEEE 754 bits. */
    FLOAT64(8, 0.0, Double.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Double.doubleToRawLongBits(Wire.readFloat64(in));
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            out.writeLong(value);
        }
    },
    /** Held in a number slot as 1 or 0. */
    BOOL(1, false, Boolean.class) {
        @Override
        public long readNumber(ByteBuf in) {
            return Wire.readBoolean(in) ? 1 : 0;
        }

        @Override
        public void writeNumber(ByteBuf out, long value) {
            out.writeByte(value != 0 ? 1 : 0);
        }
    },
    UUID_TYPE(16, new UUID(0, 0), UUID.class) {
        @Override
        public Object read(ByteBuf in, short version, boolean flexible, boolean nullable) {
            return Wire.readUuid(in);
        }

        @Override
        public void write(ByteBuf out, Object value, short version, boolean flexible) {
            Wire.writeUuid(out, (UUID) value);
        }
    },
    STRING(-1, "", String.class) {
        @Override
        public Object read(ByteBuf in, short version, boolean flexible, boolean nullable) {
            int length = readLengthOrNull(in, flexible, false, nullable);
            return length < 0 ? null : Wire.readUtf8(in, length);
        }

        @Override
        public void write(ByteBuf out, Object value, short version, boolean flexible) {
            if (value == null) {
                Wire.writeLength(out, -1, flexible, false);
                return;
            }
            int length = utf8Length((String) value);
            Wire.writeLength(out, length, flexible, false);
            out.writeCharSequence((String) value, StandardCharsets.UTF_8);
        }

        @Override
        public int sizeOf(Object value, short version, boolean flexible) {
            int length = value == null ? -1 : utf8Length((String) value);
            return Wire.sizeOfLength(length, flexible, false) + Math.max(length, 0);
        }
    },
    BYTES(-1, new byte[0], byte[].class) {
        @Override
        public Object read(ByteBuf in, short version, boolean flexible, boolean nullable) {
            int length = readLengthOrNull(in, flexible, true, nullable);
            if (length < 0) {
                return null;
            }
            byte[] bytes = new byte[length];
            in.readBytes(bytes);
            return bytes;
        }

        @Override
        public void write(ByteBuf out, Object value, short version, boolean flexible) {
            byte[] bytes = (byte[]) value;
            Wire.writeLength(out, bytes == null ? -1 : bytes.length, flexible, true);
            if (bytes != null) {
                out.writeBytes(bytes);
            }
        }

        @Override
        public int sizeOf(Object value, short version, boolean flexible) {
            int length = value == null ? -1 : ((byte[]) value).length;
            return Wire.sizeOfLength(length, flexible, true) + Math.max(length, 0);
        }
    },
    RECORDS(-1, null, ByteBuf.class) {
        @Override
        public Object read(ByteBuf in, short version, boolean flexible, boolean nullable) {
            int length = readLengthOrNull(in, flexible, true, nullable);
            return length < 0 ? null : in.readSlice(length);
        }

        @Override
        public void write(ByteBuf out, Object value, short version, boolean flexible) {
            write(out, value, version, flexible, Splices.NONE);
        }

        /** A payload gets its length prefix here and its bytes from the transport, at the noted splice. */
        @Override
        public void write(ByteBuf out, Object value, short version, boolean flexible, Splices splices) {
            Wire.writeLength(out, recordsLength(value), flexible, true);
            if (value instanceof RecordsPayload) {
                splices.add(out.writerIndex(), (RecordsPayload) value);
            } else if (value != null) {
                ByteBuf records = (ByteBuf) value;
                out.writeBytes(records, records.readerIndex(), records.readableBytes());
            }
        }

        @Override
        public int sizeOf(Object value, short version, boolean flexible) {
            int length = recordsLength(value);
            return Wire.sizeOfLength(length, flexible, true) + Math.max(length, 0);
        }

        @Override
        public boolean accepts(Object value) {
            return value instanceof ByteBuf || value instanceof RecordsPayload;
        }

        private int recordsLength(Object value) {
            if (value == null) {
                return -1;
            }
            return value instanceof RecordsPayload ? ((RecordsPayload) value).sizeInBytes()
                    : ((ByteBuf) value).readableBytes();
        }
    };

    private final int fixedSize;
    private final Object implicitDefault;
    private final Class<?> javaClass;
    private final boolean numeric;

    Primitive(int fixedSize, Object implicitDefault, Class<?> javaClass) {
        this.fixedSize = fixedSize;
        this.implicitDefault = implicitDefault;
        this.javaClass = javaClass;
        this.numeric = implicitDefault instanceof Number || implicitDefault instanceof Boolean;
    }

    /**
     * Whether a struct holds this type in a {@code long} slot instead of an object one: the integer types, and
     * float64 and bool encoded as {@link #box} says. Those are read and written without boxing.
     */
    public boolean isNumeric() {
        return numeric;
    }

    /** Reads a value of a numeric type into its slot encoding. */
    public long readNumber(ByteBuf in) {
        throw new UnsupportedOperationException(this + " is not held in a number slot");
    }

    /** Writes a value of a numeric type from its slot encoding, checking the range of the unsigned types. */
    public void writeNumber(ByteBuf out, long value) {
        throw new UnsupportedOperationException(this + " is not held in a number slot");
    }

    /**
     * Numeric types read and write as objects (in arrays of scalars, and through {@link Struct#get}) by boxing
     * their slot encoding; the other types override these.
     */
    @Override
    public Object read(ByteBuf in, short version, boolean flexible, boolean nullable) {
        return box(readNumber(in));
    }

    @Override
    public void write(ByteBuf out, Object value, short version, boolean flexible) {
        writeNumber(out, unbox(value));
    }

    /** The object a slot encoding stands for: a {@link Byte} for int8, a {@link Double} for float64's bits, ... */
    Object box(long slot) {
        switch (this) {
            case INT8:
                return (byte) slot;
            case INT16:
                return (short) slot;
            case INT32:
            case UINT16:
                return (int) slot;
            case INT64:
            case UINT32:
                return slot;
            case FLOAT64:
                return Double.longBitsToDouble(slot);
            case BOOL:
                return slot != 0;
            default:
                throw new UnsupportedOperationException(this + " is not held in a number slot");
        }
    }

    /** The slot encoding of a value of this type's Java class (checked by {@link #accepts} before). */
    long unbox(Object value) {
        switch (this) {
            case INT8:
                return (Byte) value;
            case INT16:
                return (Short) value;
            case INT32:
            case UINT16:
                return (Integer) value;
            case INT64:
            case UINT32:
                return (Long) value;
            case FLOAT64:
                return Double.doubleToRawLongBits((Double) value);
            case BOOL:
                return (Boolean) value ? 1 : 0;
            default:
                throw new UnsupportedOperationException(this + " is not held in a number slot");
        }
    }

    @Override
    public int sizeOf(Object value, short version, boolean flexible) {
        return fixedSize;
    }

    @Override
    public int minSize(short version, boolean flexible) {
        if (fixedSize >= 0) {
            return fixedSize;
        }
        return flexible ? 1 : (this == STRING ? 2 : 4);
    }

    @Override
    public Object implicitDefault() {
        return implicitDefault instanceof byte[] ? new byte[0] : implicitDefault;
    }

    @Override
    public boolean accepts(Object value) {
        return javaClass.isInstance(value);
    }

    /** Converts a default written in a schema as a plain number to the class this type carries. */
    Object coerceNumber(long number) {
        if (this == FLOAT64) {
            return (double) number;
        }
        if (!numeric || this == BOOL) {
            throw new IllegalArgumentException("numeric default on " + this);
        }
        return box(number); // an integer's slot holds the number itself
    }

    private static int readLengthOrNull(ByteBuf in, boolean compact, boolean wide, boolean nullable) {
        int length = Wire.readLength(in, compact, wide);
        // Any negative length means null to Kafka's readers, not only -1.
        if (length < 0) {
            if (!nullable) {
                throw new ProtocolException("null in a non-nullable field");
            }
            return -1;
        }
        Wire.require(in, length, "length-prefixed field");
        return length;
    }

    private static int utf8Length(String value) {
        int length = ByteBufUtil.utf8Bytes(value);
        if (length > Wire.MAX_STRING_BYTES) {
            throw new ProtocolException("string of " + length + " bytes exceeds " + Wire.MAX_STRING_BYTES);
        }
        return length;
    }
}
