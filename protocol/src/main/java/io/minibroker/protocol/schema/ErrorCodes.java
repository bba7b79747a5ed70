package io.minibroker.protocol.schema;

import java.util.Arrays;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * Every error code a message carries, at any depth: each int16 field named {@code ErrorCode} that exists in the
 * message's version, in the message itself and in each struct of its arrays and structs (which fields those are is worked out once per schema). This is what Kafka's
 * responses count in their {@code errorCounts()} for the {@code ErrorsPerSec} meter, message by message; one walk
 * of the schema does it for every API here. No allocation: it visits what is there.
 */
public final class ErrorCodes {

    private static final String FIELD = "ErrorCode";

    private ErrorCodes() {
    }

    /** Calls {@code each} with every error code in {@code message}, read at {@code version}. */
    public static void forEach(Struct message, short version, IntConsumer each) {
        StructSchema schema = message.schema();
        for (int i : schema.errorCodeWalk()) {
            Field field = schema.field(i);
            if (!field.existsIn(version)) {
                continue;
            }
            if (schema.numberType(i) != null) { // only int16 ErrorCode fields are walked among numbers
                each.accept((short) message.numbers()[schema.slot(i)]);
                continue;
            }
            Object value = message.objects()[schema.slot(i)];
            if (value instanceof Struct nested) {
                forEach(nested, version, each);
            } else if (value instanceof List<?> elements) {
                for (Object element : elements) {
                    forEach((Struct) element, version, each);
                }
            }
        }
    }

    /**
     * Sets every error code {@code message} carries in {@code version}, at any depth, to {@code code}, and returns
     * how many it set: a response made to fail after it was served, or a fresh response's top-level code (0 when
     * the message has no error code outside its arrays, which are then empty).
     */
    public static int overwrite(Struct message, short version, short code) {
        StructSchema schema = message.schema();
        int set = 0;
        for (int i : schema.errorCodeWalk()) {
            if (!schema.field(i).existsIn(version)) {
                continue;
            }
            if (schema.numberType(i) != null) { // only int16 ErrorCode fields are walked among numbers
                message.numbers()[schema.slot(i)] = code;
                set++;
                continue;
            }
            Object value = message.objects()[schema.slot(i)];
            if (value instanceof Struct nested) {
                set += overwrite(nested, version, code);
            } else if (value instanceof List<?> elements) {
                for (Object element : elements) {
                    set += overwrite((Struct) element, version, code);
                }
            }
        }
        return set;
    }

    /**
     * A fresh {@code response} at {@code version} answering the whole request with {@code code} in its top-level
     * error code; a response without one (its codes are all in arrays, empty in a fresh message) cannot say it.
     */
    public static Struct topLevelAnswer(MessageSchema response, short version, short code) {
        Struct body = response.newMessage();
        if (overwrite(body, version, code) == 0) {
            throw new IllegalStateException(response + " v" + version + " has no top-level error code");
        }
        return body;
    }

    /**
     * The indexes of the fields a walk visits, worked out once per struct schema so that counting a response's
     * codes compares no field names: each int16 {@code ErrorCode}, each struct and each array of structs.
     */
    static int[] fieldsToVisit(Field[] fields) {
        int[] visit = new int[fields.length];
        int count = 0;
        for (int i = 0; i < fields.length; i++) {
            FieldType type = fields[i].type();
            boolean errorCode = type == Primitive.INT16 && fields[i].name().equals(FIELD);
            boolean structs = type instanceof StructSchema
                    || type instanceof ArrayType array && array.elementType() instanceof StructSchema;
            if (errorCode || structs) {
                visit[count++] = i;
            }
        }
        return Arrays.copyOf(visit, count);
    }
}
