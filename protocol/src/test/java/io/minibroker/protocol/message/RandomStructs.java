package io.minibroker.protocol.message;

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

/**
 * Fills a struct with random values for the fields that exist in one version, favouring the values codecs
 * get wrong: nulls, empty strings and arrays, extremes, multi-byte characters, tagged fields left at
 * their default next to ones that are set.
 */
final class RandomStructs {
    private static final String[] SAMPLE_STRINGS = {"", "a", "topic-1", "ünïcødé", "日本語", "x".repeat(200)};

    private final Random random;

    RandomStructs(long seed) {
        this.random = new Random(seed);
    }

    Struct fill(StructSchema schema, short version, int depth) {
        Struct struct = schema.newStruct();
        for (Field f : schema.fields()) {
            if (!f.existsIn(version)) {
                continue;
            }
            if (f.isTaggedIn(version) && random.nextInt(3) == 0) {
                continue;
            }
            if (f.isNullableIn(version) && random.nextInt(5) == 0) {
                struct.set(f.name(), null);
                continue;
            }
            struct.set(f.name(), value(f.type(), version, depth));
        }
        return struct;
    }

    private Object value(FieldType type, short version, int depth) {
        if (type instanceof StructSchema) {
            return fill((StructSchema) type, version, depth + 1);
        }
        if (type instanceof ArrayType) {
            int count = depth > 3 ? random.nextInt(2) : random.nextInt(4);
            List<Object> list = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                list.add(value(((ArrayType) type).elementType(), version, depth + 1));
            }
            return list;
        }
        return scalar((Primitive) type);
    }

    private Object scalar(Primitive type) {
        boolean extreme = random.nextInt(6) == 0;
        switch (type) {
            case INT8:
                return extreme ? (random.nextBoolean() ? Byte.MIN_VALUE : Byte.MAX_VALUE) : (byte) random.nextInt();
            case INT16:
                return extreme ? (random.nextBoolean() ? Short.MIN_VALUE : Short.MAX_VALUE) : (short) random.nextInt();
            case INT32:
                return extreme ? (random.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : random.nextInt(1000) - 2;
            case INT64:
                return extreme ? (random.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE) : random.nextLong();
            case UINT16:
                return extreme ? 0xffff : random.nextInt(0x10000);
            case UINT32:
                return extreme ? 0xffff_ffffL : (long) random.nextInt(Integer.MAX_VALUE);
            case FLOAT64:
                return extreme ? Double.MAX_VALUE : random.nextDouble();
            case BOOL:
                return random.nextBoolean();
            case UUID_TYPE:
                return extreme ? new UUID(0, 0) : new UUID(random.nextLong(), random.nextLong());
            case STRING:
                return SAMPLE_STRINGS[random.nextInt(SAMPLE_STRINGS.length)];
            case BYTES: {
                byte[] bytes = new byte[extreme ? 0 : random.nextInt(20)];
                random.nextBytes(bytes);
                return bytes;
            }
            case RECORDS: {
                byte[] bytes = new byte[random.nextInt(40)];
                random.nextBytes(bytes);
                return Unpooled.wrappedBuffer(bytes);
            }
            default:
                throw new IllegalArgumentException(type.toString());
        }
    }
}
