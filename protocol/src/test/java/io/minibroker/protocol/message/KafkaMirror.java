package io.minibroker.protocol.message;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.schema.ArrayType;
import io.minibroker.protocol.schema.Field;
import io.minibroker.protocol.schema.FieldType;
import io.minibroker.protocol.schema.MessageSchema;
import io.minibroker.protocol.schema.Primitive;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.protocol.schema.StructSchema;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Message;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.common.protocol.types.BoundField;
import org.apache.kafka.common.protocol.types.Schema;
import org.apache.kafka.common.protocol.types.TaggedFields;
import org.apache.kafka.common.protocol.types.Type;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * Bridges our schemas to kafka-clients' generated message classes: parses and serializes with Kafka's
 * code, compares field values through Kafka's accessors, and compares our schema's shape at a version
 * with the reference {@link Schema} Kafka publishes for it.
 */
final class KafkaMirror {
    private KafkaMirror() {
    }

    static Class<?> dataClass(MessageSchema schema) {
        try {
            return Class.forName("org.apache.kafka.common.message." + schema.name() + "Data");
        } catch (ClassNotFoundException e) {
            throw new AssertionError(e);
        }
    }

    static ApiMessage parse(MessageSchema schema, byte[] bytes, short version) {
        try {
            return (ApiMessage) dataClass(schema).getConstructor(org.apache.kafka.common.protocol.Readable.class, short.class)
                    .newInstance(new ByteBufferAccessor(ByteBuffer.wrap(bytes)), version);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("Kafka could not parse " + schema.name() + " v" + version, e.getCause() == null ? e : e.getCause());
        }
    }

    static byte[] serialize(Message message, short version) {
        ByteBuffer buffer = MessageUtil.toByteBufferAccessor(message, version).buffer();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Asserts every field of {@code ours}, present in the version or not, equals Kafka's accessor value. */
    static void assertSameValues(Struct ours, Object theirs, String path) {
        for (Field f : ours.schema().fields()) {
            Object kafkaValue = accessor(theirs, f.name());
            assertSameValue(f.type(), ours.get(f.name()), kafkaValue, path + "." + f.name());
        }
        if (theirs instanceof Message) {
            assertThat(((Message) theirs).unknownTaggedFields()).as(path + " unknown tagged fields").isEmpty();
        }
    }

    private static void assertSameValue(FieldType type, Object ours, Object theirs, String path) {
        if (ours == null || theirs == null) {
            assertThat(theirs).as(path).isNull();
            assertThat(ours).as(path).isNull();
            return;
        }
        if (type instanceof StructSchema) {
            assertSameValues((Struct) ours, theirs, path);
        } else if (type instanceof ArrayType) {
            List<?> list = (List<?>) ours;
            Collection<?> collection = (Collection<?>) theirs;
            assertThat(collection).as(path + " size").hasSize(list.size());
            Iterator<?> it = collection.iterator();
            for (int i = 0; i < list.size(); i++) {
                assertSameValue(((ArrayType) type).elementType(), list.get(i), it.next(), path + "[" + i + "]");
            }
        } else if (type == Primitive.UUID_TYPE) {
            Uuid uuid = (Uuid) theirs;
            assertThat(new UUID(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits())).as(path).isEqualTo(ours);
        } else if (type == Primitive.RECORDS) {
            ByteBuffer buffer = ((MemoryRecords) (BaseRecords) theirs).buffer();
            assertThat(Unpooled.wrappedBuffer(buffer)).as(path).isEqualTo((ByteBuf) ours);
        } else if (theirs instanceof ByteBuffer zeroCopy) { // a "zeroCopy" bytes field (Envelope's)
            byte[] bytes = new byte[zeroCopy.remaining()];
            zeroCopy.duplicate().get(bytes);
            assertThat(bytes).as(path).isEqualTo(ours);
        } else {
            assertThat(theirs).as(path).isEqualTo(ours);
        }
    }

    private static Object accessor(Object data, String fieldName) {
        String method = Character.toLowerCase(fieldName.charAt(0)) + fieldName.substring(1);
        try {
            Method m = data.getClass().getMethod(method);
            return m.invoke(data);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no accessor " + method + " on " + data.getClass().getName(), e);
        }
    }

    /** A canonical description of our schema at a version, written to be compared with {@link #describe(Schema)}. */
    static String describe(StructSchema schema, short version, boolean flexible) {
        StringBuilder sb = new StringBuilder("{");
        Map<Integer, String> tagged = new TreeMap<>();
        for (Field f : schema.fields()) {
            if (!f.existsIn(version)) {
                continue;
            }
            String entry = snake(f.name()) + ":" + describe(f.type(), version, flexible) + (f.isNullableIn(version) ? "?" : "");
            if (f.isTaggedIn(version)) {
                tagged.put(f.tag(), entry);
            } else {
                sb.append(entry).append(' ');
            }
        }
        if (flexible) {
            sb.append("tags").append(tagged);
        }
        return sb.append('}').toString();
    }

    private static String describe(FieldType type, short version, boolean flexible) {
        if (type instanceof StructSchema) {
            return describe((StructSchema) type, version, flexible);
        }
        if (type instanceof ArrayType) {
            return "[" + describe(((ArrayType) type).elementType(), version, flexible) + "]";
        }
        return ((Primitive) type).name().replace("UUID_TYPE", "UUID");
    }

    static String describe(Schema schema) {
        StringBuilder sb = new StringBuilder("{");
        boolean flexible = false;
        Map<Integer, String> tagged = new TreeMap<>();
        for (BoundField bf : schema.fields()) {
            if (bf.def.type instanceof TaggedFields) {
                flexible = true;
                for (Map.Entry<Integer, org.apache.kafka.common.protocol.types.Field> e : taggedFieldsOf((TaggedFields) bf.def.type).entrySet()) {
                    tagged.put(e.getKey(), e.getValue().name + ":" + describeField(e.getValue().type));
                }
            } else {
                sb.append(bf.def.name).append(':').append(describeField(bf.def.type)).append(' ');
            }
        }
        if (flexible) {
            sb.append("tags").append(tagged);
        }
        return sb.append('}').toString();
    }

    private static String describeField(Type type) {
        return describeType(type) + (type.isNullable() ? "?" : "");
    }

    private static String describeType(Type type) {
        if (type instanceof Schema) {
            return describe((Schema) type);
        }
        if (type.isArray()) {
            return "[" + describeType(type.arrayElementType().orElseThrow()) + "]";
        }
        String name = type.toString();
        if (type == Type.UUID) {
            return "UUID";
        }
        if (type == Type.BOOLEAN) {
            return "BOOL";
        }
        if (type == Type.UNSIGNED_INT32) {
            return "UINT32";
        }
        if (name.contains("RECORDS")) {
            return "RECORDS";
        }
        if (name.contains("STRING")) {
            return "STRING";
        }
        if (name.contains("BYTES")) {
            return "BYTES";
        }
        return name;
    }

    @SuppressWarnings("unchecked")
    static Map<Integer, org.apache.kafka.common.protocol.types.Field> taggedFieldsOf(TaggedFields type) {
        try {
            java.lang.reflect.Field f = TaggedFields.class.getDeclaredField("fields");
            f.setAccessible(true);
            return (Map<Integer, org.apache.kafka.common.protocol.types.Field>) f.get(type);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static Schema kafkaSchema(MessageSchema schema, short version) {
        try {
            Schema[] schemas = (Schema[]) dataClass(schema).getField("SCHEMAS").get(null);
            return schemas[version];
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    static String snake(String camel) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < camel.length(); i++) {
            char c = camel.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && !Character.isUpperCase(camel.charAt(i - 1))) {
                sb.append('_');
            }
            sb.append(Character.toLowerCase(c));
        }
        return sb.toString();
    }

    static List<Short> versions(MessageSchema schema) {
        List<Short> versions = new ArrayList<>();
        for (short v = schema.lowestVersion(); v <= schema.highestVersion(); v++) {
            versions.add(v);
        }
        return versions;
    }
}
