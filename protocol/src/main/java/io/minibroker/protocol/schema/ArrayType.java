package io.minibroker.protocol.schema;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * An array: an int32 count (or, in flexible versions, an unsigned varint holding count + 1, so 0 means
 * null) followed by the elements. Decodes to a {@link List}. The count is checked against the bytes left
 * before the list is allocated: 2^31 elements announced in a 20-byte frame fail at once.
 */
public final class ArrayType implements FieldType {
    private final FieldType elementType;

    ArrayType(FieldType elementType) {
        this.elementType = elementType;
    }

    public FieldType elementType() {
        return elementType;
    }

    @Override
    public Object read(ByteBuf in, short version, boolean flexible, boolean nullable) {
        int count = Wire.readLength(in, flexible, true);
        // Any negative count means null to Kafka's readers, not only -1.
        if (count < 0) {
            if (!nullable) {
                throw new ProtocolException("null in a non-nullable array");
            }
            return null;
        }
        // Elements of zero bytes cannot occur in Kafka's messages, so one byte each is a safe floor.
        int elementMin = Math.max(1, elementType.minSize(version, flexible));
        if (count > in.readableBytes() / elementMin) {
            throw new ProtocolException("array of " + count + " elements cannot fit in " + in.readableBytes() + " bytes");
        }
        List<Object> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            elements.add(elementType.read(in, version, flexible, false));
        }
        return elements;
    }

    @Override
    public void write(ByteBuf out, Object value, short version, boolean flexible) {
        write(out, value, version, flexible, Splices.NONE);
    }

    @Override
    public void write(ByteBuf out, Object value, short version, boolean flexible, Splices splices) {
        List<?> elements = (List<?>) value;
        if (elements == null) {
            Wire.writeLength(out, -1, flexible, true);
            return;
        }
        Wire.writeLength(out, elements.size(), flexible, true);
        for (Object element : elements) {
            if (element == null) {
                throw new ProtocolException("null array element");
            }
            elementType.write(out, element, version, flexible, splices);
        }
    }

    @Override
    public int sizeOf(Object value, short version, boolean flexible) {
        List<?> elements = (List<?>) value;
        if (elements == null) {
            return Wire.sizeOfLength(-1, flexible, true);
        }
        int size = Wire.sizeOfLength(elements.size(), flexible, true);
        for (Object element : elements) {
            size += elementType.sizeOf(element, version, flexible);
        }
        return size;
    }

    @Override
    public int minSize(short version, boolean flexible) {
        return flexible ? 1 : 4;
    }

    @Override
    public Object implicitDefault() {
        return new ArrayList<>(0);
    }

    @Override
    public boolean accepts(Object value) {
        return value instanceof List;
    }
}
