package io.minibroker.broker.authz;

/** Kafka's AclPermissionType with its wire codes. */
public enum AclPermissionType {
    UNKNOWN(0), ANY(1), DENY(2), ALLOW(3);

    private final byte code;

    AclPermissionType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static AclPermissionType fromCode(byte code) {
        for (AclPermissionType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        return UNKNOWN;
    }
}
