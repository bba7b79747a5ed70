package io.minibroker.protocol.schema;

import java.util.List;
import java.util.function.IntConsumer;

/**
 * Every error code a message carries, at any depth: each int16 field named {@code ErrorCode} that exists in the
 * message's version, in the message itself and in each struct of its arrays and structs. This is what Kafka's
 * responses count in their {@code errorCounts()} for the {@code ErrorsPerSec} meter, message by message; one walk
 * of the schema does it for every API here. No allocation: it visits what is there.
 */
public final class ErrorCodes {

    private static final String FIELD = "ErrorCode";

    private ErrorCodes() {
    }

    /** Calls {@code each} with every error code in {@code message}, read at {@code version}. */
    public static void forEach(Struct message, short version, IntConsumer each) {
        List<Field> fields = message.schema().fields();
        for (int i = 0; i < fields.size(); i++) {
            Field field = fields.get(i);
            if (!field.existsIn(version)) {
                continue;
            }
            FieldType type = field.type();
            Object value = message.getRaw(i);
            if (type == Primitive.INT16 && field.name().equals(FIELD)) {
                each.accept((Short) value);
            } else if (type instanceof StructSchema && value instanceof Struct nested) {
                forEach(nested, version, each);
            } else if (type instanceof ArrayType array && array.elementType() instanceof StructSchema
                    && value instanceof List<?> elements) {
                for (Object element : elements) {
                    forEach((Struct) element, version, each);
                }
            }
        }
    }
}
