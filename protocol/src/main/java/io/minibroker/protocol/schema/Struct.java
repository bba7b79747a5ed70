package io.minibroker.protocol.schema;

import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.UUID;

/**
 * A decoded (or to-be-encoded) message or nested struct: one value per field of its {@link StructSchema},
 * every field starting at its default. The same object serves every version; fields a version lacks are
 * simply not written. Typed getters fail fast with {@link ClassCastException} on a type mistake.
 */
public final class Struct {
    private final StructSchema schema;
    private final Object[] values;
    private List<RawTaggedField> unknownTags = Collections.emptyList();

    Struct(StructSchema schema) {
        this.schema = schema;
        this.values = new Object[schema.fieldCount()];
        for (int i = 0; i < values.length; i++) {
            values[i] = schema.field(i).newDefault();
        }
    }

    public StructSchema schema() {
        return schema;
    }

    public Object get(String field) {
        return values[schema.indexOf(field)];
    }

    /** Reads by position, for typed views that resolve {@link StructSchema#indexOf} once. */
    public Object get(int index) {
        return values[index];
    }

    public byte getInt8(String field) {
        return (Byte) get(field);
    }

    public short getInt16(String field) {
        return (Short) get(field);
    }

    public int getInt32(String field) {
        return (Integer) get(field);
    }

    public long getInt64(String field) {
        return (Long) get(field);
    }

    public double getFloat64(String field) {
        return (Double) get(field);
    }

    public boolean getBool(String field) {
        return (Boolean) get(field);
    }

    public String getString(String field) {
        return (String) get(field);
    }

    public byte[] getBytes(String field) {
        return (byte[]) get(field);
    }

    public UUID getUuid(String field) {
        return (UUID) get(field);
    }

    public ByteBuf getRecords(String field) {
        return (ByteBuf) get(field);
    }

    public Struct getStruct(String field) {
        return (Struct) get(field);
    }

    /** An array of structs; null only when the field is nullable and null. */
    @SuppressWarnings("unchecked")
    public List<Struct> getStructs(String field) {
        return (List<Struct>) get(field);
    }

    /** An array of scalars (int32, int64 or string elements). */
    @SuppressWarnings("unchecked")
    public <T> List<T> getList(String field) {
        return (List<T>) get(field);
    }

    /** Sets a field, checking the value's Java class against the field's type. Returns this, for chaining. */
    public Struct set(String field, Object value) {
        return set(schema.indexOf(field), value);
    }

    /** Sets by position, for typed views that resolve {@link StructSchema#indexOf} once. */
    public Struct set(int index, Object value) {
        FieldType type = schema.field(index).type();
        if (value != null && !type.accepts(value)) {
            throw new IllegalArgumentException(schema.name() + "." + schema.field(index).name() + " cannot hold "
                    + value.getClass().getSimpleName());
        }
        values[index] = value;
        return this;
    }

    /** Appends a new element, at its defaults, to an array-of-structs field and returns it for filling in. */
    public Struct addElement(String field) {
        return addElement(schema.indexOf(field));
    }

    public Struct addElement(int index) {
        FieldType type = schema.field(index).type();
        if (!(type instanceof ArrayType) || !(((ArrayType) type).elementType() instanceof StructSchema)) {
            throw new IllegalArgumentException(schema.name() + "." + schema.field(index).name() + " is not an array of structs");
        }
        Struct element = ((StructSchema) ((ArrayType) type).elementType()).newStruct();
        @SuppressWarnings("unchecked")
        List<Object> list = (List<Object>) values[index];
        if (list == null) {
            list = new ArrayList<>();
            values[index] = list;
        }
        list.add(element);
        return element;
    }

    /**
     * The records payloads this struct and the structs inside it hold: what a message that will not be encoded
     * must release, and what its encoding leaves out of the buffer.
     */
    public List<RecordsPayload> recordsPayloads() {
        List<RecordsPayload> found = new ArrayList<>(0);
        collectPayloads(Arrays.asList(values), found);
        return found;
    }

    private static void collectPayloads(Iterable<?> values, List<RecordsPayload> found) {
        for (Object value : values) {
            if (value instanceof RecordsPayload) {
                found.add((RecordsPayload) value);
            } else if (value instanceof Struct) {
                collectPayloads(Arrays.asList(((Struct) value).values), found);
            } else if (value instanceof List) {
                collectPayloads((List<?>) value, found);
            }
        }
    }

    public List<RawTaggedField> unknownTags() {
        return unknownTags;
    }

    /** Keeps unknown tags in ascending tag order so they merge with known ones on writing. */
    public void addUnknownTag(RawTaggedField raw) {
        if (unknownTags.isEmpty()) {
            unknownTags = new ArrayList<>(2);
        }
        int at = unknownTags.size();
        while (at > 0 && unknownTags.get(at - 1).tag() > raw.tag()) {
            at--;
        }
        unknownTags.add(at, raw);
    }

    Object getRaw(int index) {
        return values[index];
    }

    void setRaw(int index, Object value) {
        values[index] = value;
    }

    boolean isAllDefault() {
        if (!unknownTags.isEmpty()) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (!schema.field(i).isDefault(values[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Struct)) {
            return false;
        }
        Struct other = (Struct) o;
        if (other.schema != schema || !other.unknownTags.equals(unknownTags)) {
            return false;
        }
        for (int i = 0; i < values.length; i++) {
            if (!Values.deepEquals(values[i], other.values[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = schema.hashCode();
        for (Object v : values) {
            h = 31 * h + Values.deepHash(v);
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(schema.name()).append('{');
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object v = values[i];
            sb.append(schema.field(i).name()).append('=');
            if (v instanceof byte[]) {
                sb.append(((byte[]) v).length).append(" bytes");
            } else if (v instanceof ByteBuf) {
                sb.append(((ByteBuf) v).readableBytes()).append(" record bytes");
            } else {
                sb.append(v);
            }
        }
        return sb.append('}').toString();
    }
}
