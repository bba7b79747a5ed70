package io.minibroker.protocol.schema;

import io.netty.buffer.ByteBuf;

/**
 * How one field's value travels on the wire. The same type reads differently by version: in flexible
 * versions strings, bytes and arrays carry compact (unsigned varint, length + 1) prefixes, and structs end
 * with a tagged-field section.
 */
public interface FieldType {
    Object read(ByteBuf in, short version, boolean flexible, boolean nullable);

    void write(ByteBuf out, Object value, short version, boolean flexible);

    /**
     * Writes a value that may hold {@link RecordsPayload}s: each is noted in {@code splices} after its length
     * prefix instead of being copied. Only records and the types that contain fields need to override it.
     */
    default void write(ByteBuf out, Object value, short version, boolean flexible, Splices splices) {
        write(out, value, version, flexible);
    }

    int sizeOf(Object value, short version, boolean flexible);

    /** The fewest bytes a value can occupy; bounds array lengths before anything is allocated. */
    int minSize(short version, boolean flexible);

    /** The value a field of this type has when the spec gives no default. */
    Object implicitDefault();

    /** Whether {@code value} is of the Java class this type carries. */
    boolean accepts(Object value);
}
