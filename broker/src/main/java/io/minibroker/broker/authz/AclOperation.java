package io.minibroker.broker.authz;

/** Kafka's AclOperation with its wire codes, and which granted operations imply another when ALLOWed. */
public enum AclOperation {
    UNKNOWN(0), ANY(1), ALL(2), READ(3), WRITE(4), CREATE(5), DELETE(6), ALTER(7), DESCRIBE(8), CLUSTER_ACTION(9),
    DESCRIBE_CONFIGS(10), ALTER_CONFIGS(11), IDEMPOTENT_WRITE(12), CREATE_TOKENS(13), DESCRIBE_TOKENS(14),
    TWO_PHASE_COMMIT(15);

    private final byte code;

    AclOperation(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static AclOperation fromCode(byte code) {
        for (AclOperation operation : values()) {
            if (operation.code == code) {
                return operation;
            }
        }
        return UNKNOWN;
    }

    /**
     * Whether an ALLOW of {@code granted} also allows this operation, as Kafka's authorizers read them: DESCRIBE is
     * implied by READ, WRITE, DELETE and ALTER; DESCRIBE_CONFIGS by ALTER_CONFIGS; everything by ALL. DENY has no
     * implications: a DENY on READ does not deny DESCRIBE. Read on every check, so it allocates nothing.
     */
    boolean isAllowedBy(AclOperation granted) {
        return granted == this || granted == ALL || switch (this) {
            case DESCRIBE -> granted == READ || granted == WRITE || granted == DELETE || granted == ALTER;
            case DESCRIBE_CONFIGS -> granted == ALTER_CONFIGS;
            default -> false;
        };
    }
}
