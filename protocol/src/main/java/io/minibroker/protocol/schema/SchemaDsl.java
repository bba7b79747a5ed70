package io.minibroker.protocol.schema;

/**
 * The vocabulary message schemas are written in. A schema reads like the spec it transcribes:
 *
 * <pre>{@code
 * MessageSchema RESPONSE = message("HeartbeatResponse", "0-4", "4+",
 *     field("ThrottleTimeMs", INT32, "1+"),
 *     field("ErrorCode", INT16, "0+"));
 * }</pre>
 *
 * Version ranges use the spec notation of {@link VersionRange}.
 */
public final class SchemaDsl {
    public static final Primitive INT8 = Primitive.INT8;
    public static final Primitive INT16 = Primitive.INT16;
    public static final Primitive INT32 = Primitive.INT32;
    public static final Primitive INT64 = Primitive.INT64;
    public static final Primitive UINT16 = Primitive.UINT16;
    public static final Primitive UINT32 = Primitive.UINT32;
    public static final Primitive FLOAT64 = Primitive.FLOAT64;
    public static final Primitive BOOL = Primitive.BOOL;
    public static final Primitive UUID = Primitive.UUID_TYPE;
    public static final Primitive STRING = Primitive.STRING;
    public static final Primitive BYTES = Primitive.BYTES;
    public static final Primitive RECORDS = Primitive.RECORDS;

    private SchemaDsl() {
    }

    public static Field field(String name, FieldType type, String versions) {
        return new Field(name, type, VersionRange.parse(versions));
    }

    public static ArrayType array(FieldType elementType) {
        return new ArrayType(elementType);
    }

    public static StructSchema struct(String name, Field... fields) {
        return new StructSchema(name, fields);
    }

    public static MessageSchema message(String name, String validVersions, String flexibleVersions, Field... fields) {
        return new MessageSchema(name, VersionRange.parse(validVersions), VersionRange.parse(flexibleVersions),
                new StructSchema(name, fields));
    }
}
