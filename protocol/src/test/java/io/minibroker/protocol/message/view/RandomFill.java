package io.minibroker.protocol.message.view;

import io.minibroker.protocol.schema.ArrayType;
import io.minibroker.protocol.schema.Field;
import io.minibroker.protocol.schema.FieldType;
import io.minibroker.protocol.schema.Primitive;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

/** A compact random filler for the fields present in a version (nullables sometimes null). */
final class RandomFill {
    private RandomFill() {
    }

    static Struct fill(StructSchema schema, short version, Random random) {
        Struct struct = schema.newStruct();
        for (Field f : schema.fields()) {
            if (f.existsIn(version)) {
                struct.set(f.name(), f.isNullableIn(version) && random.nextInt(5) == 0 ? null : value(f.type(), version, random));
            }
        }
        return struct;
    }

    private static Object value(FieldType type, short version, Random random) {
        if (type instanceof StructSchema) {
            return fill((StructSchema) type, version, random);
        }
        if (type instanceof ArrayType) {
            List<Object> list = new ArrayList<>();
            for (int i = random.nextInt(3); i > 0; i--) {
                list.add(value(((ArrayType) type).elementType(), version, random));
            }
            return list;
        }
        switch ((Primitive) type) {
            case INT8:
                return (byte) random.nextInt();
            case INT16:
                return (short) random.nextInt();
            case INT32:
            case UINT16:
                return random.nextInt(0xffff);
            case INT64:
            case UINT32:
                return (long) random.nextInt(Integer.MAX_VALUE);
            case FLOAT64:
                return random.nextDouble();
            case BOOL:
                return random.nextBoolean();
            case UUID_TYPE:
                return new UUID(random.nextLong(), random.nextLong());
            case STRING:
                return "s" + random.nextInt(100);
            case BYTES:
                return new byte[] {(byte) random.nextInt()};
            case RECORDS:
                return Unpooled.wrappedBuffer(new byte[] {1, 2, (byte) random.nextInt()});
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }
}
