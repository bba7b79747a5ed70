package io.minibroker.broker.authz;

/**
 * Kafka's PatternType with its wire codes: a binding is LITERAL (the name, or {@code *} for every name) or PREFIXED;
 * ANY and MATCH exist only in filters.
 */
public enum PatternType {
    UNKNOWN(0), ANY(1), MATCH(2), LITERAL(3), PREFIXED(4);

    private final byte code;

    PatternType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static PatternType fromCode(byte code) {
        for (PatternType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        return UNKNOWN;
    }
}
