package io.minibroker.protocol.message;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.Field;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.Struct;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * Random messages generated from Kafka's own published schema of a version, knowing nothing of ours:
 * every field Kafka's schema has at that version gets a value, tagged fields included, nullable ones are
 * sometimes null. Written with Kafka's {@link Schema#write}, so the bytes are Kafka-made end to end.
 */
final class KafkaRandomMessages {
    private final Random random;

    KafkaRandomMessages(long seed) {
        this.random = new Random(seed);
    }

    byte[] serialize(Schema schema) {
        Struct struct = struct(schema, 0);
        ByteBuffer buffer = ByteBuffer.allocate(schema.sizeOf(struct));
        schema.write(buffer, struct);
        return buffer.array();
    }

    private Struct struct(Schema schema, int depth) {
        Struct struct = new Struct(schema);
        for (BoundField bf : schema.fields()) {
            struct.set(bf, value(bf.def.type, depth));
        }
        return struct;
    }

    private Object value(Type type, int depth) {
        if (type instanceof TaggedFields) {
            Map<Integer, Object> tagged = new TreeMap<>();
            for (Map.Entry<Integer, Field> e : KafkaMirror.taggedFieldsOf((TaggedFields) type).entrySet()) {
                if (random.nextBoolean()) {
                    tagged.put(e.getKey(), value(e.getValue().type, depth + 1));
                }
            }
            return tagged;
        }
        if (type.isNullable() && random.nextInt(5) == 0) {
            return null;
        }
        if (type instanceof Schema) {
            return struct((Schema) type, depth + 1);
        }
        if (type.isArray()) {
            Object[] elements = new Object[depth > 3 ? random.nextInt(2) : random.nextInt(4)];
            for (int i = 0; i < elements.length; i++) {
                elements[i] = value(type.arrayElementType().orElseThrow(), depth + 1);
            }
            return elements;
        }
        return scalar(type);
    }

    private Object scalar(Type type) {
        boolean extreme = random.nextInt(6) == 0;
        if (type == Type.BOOLEAN) {
            return random.nextBoolean();
        } else if (type == Type.INT8) {
            return extreme ? Byte.MIN_VALUE : (byte) random.nextInt();
        } else if (type == Type.INT16) {
            return extreme ? Short.MAX_VALUE : (short) random.nextInt();
        } else if (type == Type.UINT16) {
            return extreme ? 0xffff : random.nextInt(0x10000);
        } else if (type == Type.INT32) {
            return extreme ? Integer.MIN_VALUE : random.nextInt();
        } else if (type == Type.UNSIGNED_INT32) {
            return extreme ? 0xffff_ffffL : (long) random.nextInt(Integer.MAX_VALUE);
        } else if (type == Type.INT64) {
            return extreme ? Long.MAX_VALUE : random.nextLong();
        } else if (type == Type.FLOAT64) {
            return random.nextDouble();
        } else if (type == Type.UUID) {
            return extreme ? Uuid.ZERO_UUID : new Uuid(random.nextLong(), random.nextLong());
        } else if (type.toString().contains("STRING")) {
            return extreme ? "" : "k" + Integer.toHexString(random.nextInt()) + (random.nextBoolean() ? "ü" : "");
        } else if (type.toString().contains("BYTES")) {
            byte[] bytes = new byte[extreme ? 0 : random.nextInt(20)];
            random.nextBytes(bytes);
            return ByteBuffer.wrap(bytes);
        } else if (type.toString().contains("RECORDS")) {
            byte[] bytes = new byte[random.nextInt(30)];
            random.nextBytes(bytes);
            return MemoryRecords.readableRecords(ByteBuffer.wrap(bytes));
        }
        throw new IllegalArgumentException("no generator for Kafka type " + type);
    }
}
