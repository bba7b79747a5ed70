package io.minibroker.protocol.schema;

import io.minibroker.protocol.error.ProtocolException;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An ordered list of fields, and the interpreter that reads and writes them. Fields absent from a version
 * are skipped on the wire and hold their default in the decoded {@link Struct}.
 *
 * <p>In flexible versions a struct ends with its tagged section: an unsigned varint count, then per field
 * its tag, its size in bytes and the value, in ascending tag order. A field at its default is left out.
 * For example a Fetch response partition whose tagged {@code CurrentLeader} (tag 1) is leader 3, epoch 7
 * ends with {@code 01 01 09 00000003 00000007 00}: one field, tag 1, 9 bytes holding the two int32s and
 * the nested struct's own empty tagged section. Unknown tags are kept as {@link RawTaggedField}s.
 */
public final class StructSchema implements FieldType {
    private final String name;
    private final Field[] fields;
    private final Map<String, Integer> indexByName;
    /** The fields {@link ErrorCodes} visits: error codes, and structs or struct arrays that may hold some. */
    private final int[] errorCodeWalk;
    /**
     * The fields a search for {@link RecordsPayload}s visits: records fields, and structs or struct arrays whose
     * schema has some at any depth. Empty for most messages (Metadata among them), which are then not walked.
     */
    private final int[] recordsWalk;
    /** Per field, its type if a struct holds it in a number slot, else null. */
    private final Primitive[] numberTypes;
    /** Per field, its index among the number slots or among the object slots of a {@link Struct}. */
    private final int[] slots;
    /** The number slots of a new struct: each numeric field's default. */
    private final long[] numberDefaults;
    /** The fields held in object slots. */
    private final int[] objectFields;

    StructSchema(String name, Field... fields) {
        this.name = name;
        this.fields = fields.clone();
        this.indexByName = new HashMap<>();
        for (int i = 0; i < fields.length; i++) {
            if (indexByName.put(fields[i].name(), i) != null) {
                throw new IllegalArgumentException(name + " declares " + fields[i].name() + " twice");
            }
        }
        this.errorCodeWalk = ErrorCodes.fieldsToVisit(this.fields);
        this.recordsWalk = recordsFields(this.fields);
        this.numberTypes = new Primitive[fields.length];
        this.slots = new int[fields.length];
        long[] defaults = new long[fields.length];
        int[] objectIndexes = new int[fields.length];
        int numberCount = 0;
        int objectCount = 0;
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].type() instanceof Primitive p && p.isNumeric()) {
                numberTypes[i] = p;
                defaults[numberCount] = fields[i].numberDefault();
                slots[i] = numberCount++;
            } else {
                objectIndexes[objectCount] = i;
                slots[i] = objectCount++;
            }
        }
        this.numberDefaults = Arrays.copyOf(defaults, numberCount);
        this.objectFields = Arrays.copyOf(objectIndexes, objectCount);
    }

    public String name() {
        return name;
    }

    public List<Field> fields() {
        return Collections.unmodifiableList(Arrays.asList(fields));
    }

    Field field(int index) {
        return fields[index];
    }

    int[] errorCodeWalk() {
        return errorCodeWalk;
    }

    int[] recordsWalk() {
        return recordsWalk;
    }

    /** Nested schemas are built before the schema holding them, so theirs is known already. */
    private static int[] recordsFields(Field[] fields) {
        int[] visit = new int[fields.length];
        int count = 0;
        for (int i = 0; i < fields.length; i++) {
            FieldType type = fields[i].type();
            if (type instanceof ArrayType array) {
                type = array.elementType();
            }
            if (type == Primitive.RECORDS || type instanceof StructSchema nested && nested.recordsWalk.length > 0) {
                visit[count++] = i;
            }
        }
        return Arrays.copyOf(visit, count);
    }

    int fieldCount() {
        return fields.length;
    }

    Primitive numberType(int index) {
        return numberTypes[index];
    }

    int slot(int index) {
        return slots[index];
    }

    /** A struct's number slots at their defaults; a schema without numeric fields shares one empty array. */
    long[] newNumberSlots() {
        return numberDefaults.length == 0 ? numberDefaults : numberDefaults.clone();
    }

    int objectSlotCount() {
        return objectFields.length;
    }

    int[] objectFields() {
        return objectFields;
    }

    /** Whether field {@code index} of {@code struct} holds its default; tagged fields holding it are omitted. */
    boolean isDefault(Struct struct, int index) {
        int slot = slots[index];
        return numberTypes[index] != null ? struct.numbers()[slot] == numberDefaults[slot]
                : fields[index].isDefault(struct.objects()[slot]);
    }

    public int indexOf(String fieldName) {
        Integer index = indexByName.get(fieldName);
        if (index == null) {
            throw new IllegalArgumentException(name + " has no field " + fieldName);
        }
        return index;
    }

    public Field field(String fieldName) {
        return fields[indexOf(fieldName)];
    }

    /** The struct type of a struct field or the element type of an array-of-structs field. */
    public StructSchema structOf(String fieldName) {
        FieldType type = field(fieldName).type();
        if (type instanceof ArrayType) {
            type = ((ArrayType) type).elementType();
        }
        if (!(type instanceof StructSchema)) {
            throw new IllegalArgumentException(name + "." + fieldName + " holds no struct");
        }
        return (StructSchema) type;
    }

    public Struct newStruct() {
        return new Struct(this);
    }

    @Override
    public Struct read(ByteBuf in, short version, boolean flexible, boolean nullable) {
        Struct struct = new Struct(this, version);
        for (int i = 0; i < fields.length; i++) {
            Field f = fields[i];
            if (f.existsIn(version) && !f.isTaggedIn(version)) {
                if (isNullableStruct(f, version) && Wire.readInt8(in) < 0) {
                    struct.objects()[slots[i]] = null;
                } else {
                    readField(in, struct, i, version, flexible);
                }
            }
        }
        if (flexible) {
            readTaggedSection(in, struct, version);
        }
        return struct;
    }

    /**
     * Reads a tagged section as Kafka's generated readers do, edges included, so that a request Kafka takes is
     * taken here and one it refuses is refused: a known field's value is read where it starts, its declared size
     * unchecked; a tag that a field of this struct carries only in other versions is refused; an unknown tag's
     * bytes are kept.
     */
    private void readTaggedSection(ByteBuf in, Struct struct, short version) {
        int count = Wire.readUnsignedVarint(in);
        // Every tagged field takes at least two bytes: its tag and its size.
        if (count < 0 || count > in.readableBytes() / 2) {
            throw new ProtocolException("tagged field count " + count + " cannot fit in " + in.readableBytes() + " bytes");
        }
        for (int n = 0; n < count; n++) {
            int tag = Wire.readUnsignedVarint(in);
            int size = Wire.readUnsignedVarint(in);
            int index = taggedFieldIndex(tag, version);
            if (index >= 0) {
                readField(in, struct, index, version, true);
            } else if (tagsAnotherVersion(tag)) {
                throw new ProtocolException("tag " + tag + " is not valid for " + name + " v" + version);
            } else {
                if (size < 0) {
                    throw new ProtocolException("negative tagged field size " + size);
                }
                Wire.require(in, size, "tagged field " + tag);
                byte[] data = new byte[size];
                in.readBytes(data);
                struct.addUnknownTag(new RawTaggedField(tag, data));
            }
        }
    }

    private void readField(ByteBuf in, Struct struct, int index, short version, boolean flexible) {
        Primitive number = numberTypes[index];
        if (number != null) {
            struct.numbers()[slots[index]] = number.readNumber(in);
        } else {
            Field f = fields[index];
            struct.objects()[slots[index]] = f.type().read(in, version, flexible, f.isNullableIn(version));
        }
    }

    private int taggedFieldIndex(int tag, short version) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].tag() == tag && fields[i].isTaggedIn(version)) {
                return i;
            }
        }
        return -1;
    }

    /** Whether some field is tagged {@code tag} in some version. */
    private boolean tagsAnotherVersion(int tag) {
        for (Field f : fields) {
            // Untagged fields hold tag -1, which is also what a wire tag of 0xffffffff reads as.
            if (f.tag() == tag && tag >= 0) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void write(ByteBuf out, Object value, short version, boolean flexible) {
        write(out, value, version, flexible, Splices.NONE);
    }

    @Override
    public void write(ByteBuf out, Object value, short version, boolean flexible, Splices splices) {
        Struct struct = (Struct) value;
        checkSchema(struct);
        for (int i = 0; i < fields.length; i++) {
            Field f = fields[i];
            if (f.existsIn(version) && !f.isTaggedIn(version)) {
                if (isNullableStruct(f, version)) {
                    boolean absent = checkNullability(f, struct.objects()[slots[i]], version) == null;
                    out.writeByte(absent ? -1 : 1);
                    if (absent) {
                        continue;
                    }
                }
                writeField(out, struct, i, version, flexible, splices);
            }
        }
        if (flexible) {
            writeTaggedSection(out, struct, version, splices);
        }
    }

    /**
     * Writes known tagged fields and preserved unknown ones merged in ascending tag order, which is the
     * order Kafka writes them in.
     */
    private void writeTaggedSection(ByteBuf out, Struct struct, short version, Splices splices) {
        List<RawTaggedField> unknown = struct.unknownTags();
        int count = unknown.size();
        for (int i = 0; i < fields.length; i++) {
            if (isWrittenTagged(struct, i, version)) {
                count++;
            }
        }
        Wire.writeUnsignedVarint(out, count);
        if (count == 0) {
            return;
        }
        int nextUnknown = 0;
        int lastTag = -1;
        while (true) {
            int bestIndex = -1;
            int bestTag = Integer.MAX_VALUE;
            for (int i = 0; i < fields.length; i++) {
                Field f = fields[i];
                if (f.tag() > lastTag && f.tag() < bestTag && isWrittenTagged(struct, i, version)) {
                    bestIndex = i;
                    bestTag = f.tag();
                }
            }
            while (nextUnknown < unknown.size() && unknown.get(nextUnknown).tag() < bestTag) {
                RawTaggedField raw = unknown.get(nextUnknown++);
                Wire.writeUnsignedVarint(out, raw.tag());
                Wire.writeUnsignedVarint(out, raw.data().length);
                out.writeBytes(raw.data());
            }
            if (bestIndex < 0) {
                return;
            }
            Wire.writeUnsignedVarint(out, bestTag);
            Wire.writeUnsignedVarint(out, sizeOfField(struct, bestIndex, version, true));
            writeField(out, struct, bestIndex, version, true, splices);
            lastTag = bestTag;
        }
    }

    private void writeField(ByteBuf out, Struct struct, int index, short version, boolean flexible, Splices splices) {
        Primitive number = numberTypes[index];
        if (number != null) {
            number.writeNumber(out, struct.numbers()[slots[index]]);
        } else {
            Field f = fields[index];
            f.type().write(out, checkNullability(f, struct.objects()[slots[index]], version), version, flexible, splices);
        }
    }

    private int sizeOfField(Struct struct, int index, short version, boolean flexible) {
        Primitive number = numberTypes[index];
        if (number != null) {
            return number.sizeOf(null, version, flexible); // fixed
        }
        Field f = fields[index];
        return f.type().sizeOf(checkNullability(f, struct.objects()[slots[index]], version), version, flexible);
    }

    private boolean isWrittenTagged(Struct struct, int index, short version) {
        return fields[index].isTaggedIn(version) && !isDefault(struct, index);
    }

    /** Kafka writes a nullable struct after an int8 marker: -1 for null, 1 for a struct that follows. */
    private static boolean isNullableStruct(Field f, short version) {
        return f.type() instanceof StructSchema && f.isNullableIn(version);
    }

    private static Object checkNullability(Field f, Object value, short version) {
        if (value == null && !f.isNullableIn(version)) {
            throw new ProtocolException("field " + f.name() + " is null but not nullable in version " + version);
        }
        return value;
    }

    private void checkSchema(Struct struct) {
        if (struct.schema() != this) {
            throw new IllegalArgumentException("struct of " + struct.schema().name + " written as " + name);
        }
    }

    @Override
    public int sizeOf(Object value, short version, boolean flexible) {
        Struct struct = (Struct) value;
        checkSchema(struct);
        int size = 0;
        int tagCount = 0;
        int tagBytes = 0;
        for (int i = 0; i < fields.length; i++) {
            Field f = fields[i];
            if (f.existsIn(version) && !f.isTaggedIn(version)) {
                if (isNullableStruct(f, version)) {
                    size += 1;
                    if (struct.objects()[slots[i]] == null) {
                        continue;
                    }
                }
                size += sizeOfField(struct, i, version, flexible);
            } else if (flexible && isWrittenTagged(struct, i, version)) {
                int valueSize = sizeOfField(struct, i, version, true);
                tagCount++;
                tagBytes += Wire.sizeOfUnsignedVarint(f.tag()) + Wire.sizeOfUnsignedVarint(valueSize) + valueSize;
            }
        }
        if (flexible) {
            for (RawTaggedField raw : struct.unknownTags()) {
                tagCount++;
                tagBytes += Wire.sizeOfUnsignedVarint(raw.tag()) + Wire.sizeOfUnsignedVarint(raw.data().length) + raw.data().length;
            }
            size += Wire.sizeOfUnsignedVarint(tagCount) + tagBytes;
        }
        return size;
    }

    @Override
    public int minSize(short version, boolean flexible) {
        int size = flexible ? 1 : 0;
        for (Field f : fields) {
            if (f.existsIn(version) && !f.isTaggedIn(version)) {
                size += isNullableStruct(f, version) ? 1 : f.type().minSize(version, flexible);
            }
        }
        return size;
    }

    @Override
    public Object implicitDefault() {
        return newStruct();
    }

    @Override
    public boolean accepts(Object value) {
        return value instanceof Struct && ((Struct) value).schema() == this;
    }

    @Override
    public String toString() {
        return name;
    }
}
