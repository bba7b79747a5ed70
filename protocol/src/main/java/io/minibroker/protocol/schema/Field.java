package io.minibroker.protocol.schema;

import java.util.ArrayList;
import java.util.List;

/**
 * One named field of a struct: its type, the versions it exists in, the versions in which it may be null,
 * and, for tagged fields, its tag and the versions in which it travels in the tagged section instead of
 * in line. Immutable, since schemas are shared; built fluently by the schema DSL, e.g.
 * {@code field("Rack", STRING, "1+").nullable("1+").defaultNull()}.
 */
public final class Field {
    private final String name;
    private final FieldType type;
    private final VersionRange versions;
    private final VersionRange nullableVersions;
    private final VersionRange taggedVersions;
    private final int tag;
    private final Object defaultValue;
    private final boolean explicitDefault;

    Field(String name, FieldType type, VersionRange versions) {
        this(name, type, versions, VersionRange.NONE, VersionRange.NONE, -1, null, false);
    }

    private Field(String name, FieldType type, VersionRange versions, VersionRange nullableVersions,
                  VersionRange taggedVersions, int tag, Object defaultValue, boolean explicitDefault) {
        this.name = name;
        this.type = type;
        this.versions = versions;
        this.nullableVersions = nullableVersions;
        this.taggedVersions = taggedVersions;
        this.tag = tag;
        this.defaultValue = defaultValue;
        this.explicitDefault = explicitDefault;
    }

    public Field nullable(String versionRange) {
        return new Field(name, type, versions, VersionRange.parse(versionRange), taggedVersions, tag, defaultValue, explicitDefault);
    }

    public Field tagged(int newTag, String versionRange) {
        return new Field(name, type, versions, nullableVersions, VersionRange.parse(versionRange), newTag, defaultValue, explicitDefault);
    }

    public Field defaultsTo(long number) {
        return withDefault(((Primitive) type).coerceNumber(number));
    }

    public Field defaultsTo(boolean value) {
        return withDefault(value);
    }

    public Field defaultsTo(String value) {
        return withDefault(value);
    }

    public Field defaultNull() {
        return withDefault(null);
    }

    private Field withDefault(Object value) {
        return new Field(name, type, versions, nullableVersions, taggedVersions, tag, value, true);
    }

    public String name() {
        return name;
    }

    public FieldType type() {
        return type;
    }

    public int tag() {
        return tag;
    }

    public boolean existsIn(short version) {
        return versions.contains(version);
    }

    public boolean isTaggedIn(short version) {
        return taggedVersions.contains(version);
    }

    public boolean isNullableIn(short version) {
        return nullableVersions.contains(version);
    }

    /** A fresh default: mutable defaults (arrays, structs, bytes) are never shared between messages. */
    public Object newDefault() {
        if (explicitDefault) {
            return defaultValue;
        }
        if (type instanceof ArrayType) {
            return new ArrayList<>(0);
        }
        if (type instanceof StructSchema) {
            return ((StructSchema) type).newStruct();
        }
        return type.implicitDefault();
    }

    /** The default of a field held in a number slot ({@link Primitive#isNumeric}), in the slot's encoding. */
    long numberDefault() {
        if (!explicitDefault) {
            return 0; // 0, 0.0 and false all encode as 0
        }
        if (defaultValue == null) {
            throw new IllegalArgumentException(name + " is a number and cannot default to null");
        }
        return ((Primitive) type).unbox(defaultValue);
    }

    /** Whether {@code value} equals this field's default; tagged fields holding their default are omitted. */
    boolean isDefault(Object value) {
        if (explicitDefault) {
            return Values.deepEquals(value, defaultValue);
        }
        if (value == null) {
            return false;
        }
        if (type instanceof ArrayType) {
            return ((List<?>) value).isEmpty();
        }
        if (type instanceof StructSchema) {
            return ((Struct) value).isAllDefault();
        }
        return Values.deepEquals(value, type.implicitDefault());
    }

    @Override
    public String toString() {
        return name;
    }
}
