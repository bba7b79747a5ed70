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
 * simply not written. Typed getters fail fast on a type mistake.
 *
 * <p>Numeric fields (the integers, float64 and bool: {@link Primitive#isNumeric}) live unboxed in a {@code long[]},
 * every other field in an {@code Object[]}; the schema assigns each field its slot once. This is the shape of the
 * hot paths (Produce, Fetch, Metadata): a typed view resolves a field's index once, in a static initializer,
 * and reads or writes it by index through the primitive accessors below, so that an offset, a timestamp or an
 * error code never becomes an object between the wire and the handler, and no field name is looked up per
 * message. Records stay what the decoder made them, a slice of the frame, and what a handler sets, a
 * {@link RecordsPayload} the transport sends from its file. Why a struct with primitive slots rather than a
 * generated class per message and version, as Kafka has: see "Messages" in docs/architecture.md. Boxing is left
 * only where an object is asked for: {@link #get}, {@link #set(int, Object)} and the elements of scalar arrays.
 */
public final class Struct {
    /** The object slots of every struct without object fields: an empty array is never written to. */
    private static final Object[] NO_OBJECTS = new Object[0];

    private final StructSchema schema;
    private final long[] numbers;
    private final Object[] objects;
    private List<RawTaggedField> unknownTags = Collections.emptyList();

    Struct(StructSchema schema) {
        this(schema, (short) -1);
    }

    /**
     * A struct about to be read in {@code version}: the object fields the version carries in line are left null
     * for the reader to fill, so that no default list or nested struct is made only to be replaced. Version -1
     * has no field in line, so every field gets its default.
     */
    Struct(StructSchema schema, short version) {
        this.schema = schema;
        this.numbers = schema.newNumberSlots();
        this.objects = schema.objectSlotCount() == 0 ? NO_OBJECTS : new Object[schema.objectSlotCount()];
        for (int i : schema.objectFields()) {
            Field f = schema.field(i);
            if (!(f.existsIn(version) && !f.isTaggedIn(version))) {
                objects[schema.slot(i)] = f.newDefault();
            }
        }
    }

    public StructSchema schema() {
        return schema;
    }

    public Object get(String field) {
        return get(schema.indexOf(field));
    }

    /** Reads by position; a numeric field's value is boxed here, which the primitive accessors avoid. */
    public Object get(int index) {
        Primitive number = schema.numberType(index);
        return number != null ? number.box(numbers[schema.slot(index)]) : objects[schema.slot(index)];
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

    /** Sets by position, checking the value's Java class against the field's type. Returns this, for chaining. */
    public Struct set(int index, Object value) {
        FieldType type = schema.field(index).type();
        if (value != null && !type.accepts(value)) {
            throw new IllegalArgumentException(schema.name() + "." + schema.field(index).name() + " cannot hold "
                    + value.getClass().getSimpleName());
        }
        Primitive number = schema.numberType(index);
        if (number == null) {
            objects[schema.slot(index)] = value;
        } else if (value == null) {
            throw new IllegalArgumentException(schema.name() + "." + schema.field(index).name() + " cannot be null");
        } else {
            numbers[schema.slot(index)] = number.unbox(value);
        }
        return this;
    }

    // Primitive accessors by position, for the typed views: no boxing. Each checks that the field is of its type.

    public byte getInt8(int index) {
        return (byte) numbers[numberSlot(index, Primitive.INT8)];
    }

    public Struct setInt8(int index, byte value) {
        numbers[numberSlot(index, Primitive.INT8)] = value;
        return this;
    }

    public short getInt16(int index) {
        return (short) numbers[numberSlot(index, Primitive.INT16)];
    }

    public Struct setInt16(int index, short value) {
        numbers[numberSlot(index, Primitive.INT16)] = value;
        return this;
    }

    public int getInt32(int index) {
        return (int) numbers[numberSlot(index, Primitive.INT32)];
    }

    public Struct setInt32(int index, int value) {
        numbers[numberSlot(index, Primitive.INT32)] = value;
        return this;
    }

    public long getInt64(int index) {
        return numbers[numberSlot(index, Primitive.INT64)];
    }

    public Struct setInt64(int index, long value) {
        numbers[numberSlot(index, Primitive.INT64)] = value;
        return this;
    }

    /** An unsigned 16-bit field, as an int; its range is checked when it is written. */
    public int getUint16(int index) {
        return (int) numbers[numberSlot(index, Primitive.UINT16)];
    }

    public Struct setUint16(int index, int value) {
        numbers[numberSlot(index, Primitive.UINT16)] = value;
        return this;
    }

    /** An unsigned 32-bit field, as a long; its range is checked when it is written. */
    public long getUint32(int index) {
        return numbers[numberSlot(index, Primitive.UINT32)];
    }

    public Struct setUint32(int index, long value) {
        numbers[numberSlot(index, Primitive.UINT32)] = value;
        return this;
    }

    public double getFloat64(int index) {
        return Double.longBitsToDouble(numbers[numberSlot(index, Primitive.FLOAT64)]);
    }

    public Struct setFloat64(int index, double value) {
        numbers[numberSlot(index, Primitive.FLOAT64)] = Double.doubleToRawLongBits(value);
        return this;
    }

    public boolean getBool(int index) {
        return numbers[numberSlot(index, Primitive.BOOL)] != 0;
    }

    public Struct setBool(int index, boolean value) {
        numbers[numberSlot(index, Primitive.BOOL)] = value ? 1 : 0;
        return this;
    }

    private int numberSlot(int index, Primitive type) {
        if (schema.numberType(index) != type) {
            throw new IllegalArgumentException(schema.name() + "." + schema.field(index).name() + " is not "
                    + type.name().toLowerCase(java.util.Locale.ROOT));
        }
        return schema.slot(index);
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
        List<Object> list = (List<Object>) objects[schema.slot(index)];
        if (list == null) {
            list = new ArrayList<>();
            objects[schema.slot(index)] = list;
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
        collectPayloads(this, found);
        return found;
    }

    /** Only the fields that may hold payloads ({@link StructSchema#recordsWalk}): a Metadata answer is not walked. */
    private static void collectPayloads(Struct struct, List<RecordsPayload> found) {
        StructSchema schema = struct.schema;
        for (int i : schema.recordsWalk()) {
            Object value = struct.objects[schema.slot(i)];
            if (value instanceof RecordsPayload payload) {
                found.add(payload);
            } else if (value instanceof Struct nested) {
                collectPayloads(nested, found);
            } else if (value instanceof List<?> elements) {
                for (int e = 0; e < elements.size(); e++) { // by index: no iterator per list
                    collectPayloads((Struct) elements.get(e), found);
                }
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

    /** The slots themselves, for the schema's reader and writer (indexed by {@link StructSchema#slot}). */
    long[] numbers() {
        return numbers;
    }

    Object[] objects() {
        return objects;
    }

    boolean isAllDefault() {
        if (!unknownTags.isEmpty()) {
            return false;
        }
        for (int i = 0; i < schema.fieldCount(); i++) {
            if (!schema.isDefault(this, i)) {
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
        if (!Arrays.equals(numbers, other.numbers)) {
            return false;
        }
        for (int i = 0; i < objects.length; i++) {
            if (!Values.deepEquals(objects[i], other.objects[i])) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int h = 31 * schema.hashCode() + Arrays.hashCode(numbers);
        for (Object v : objects) {
            h = 31 * h + Values.deepHash(v);
        }
        return h;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(schema.name()).append('{');
        for (int i = 0; i < schema.fieldCount(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object v = get(i);
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
