package io.minibroker.broker.authz;

/** Kafka's ResourceType with its wire codes. */
public enum ResourceType {
    UNKNOWN(0), ANY(1), TOPIC(2), GROUP(3), CLUSTER(4), TRANSACTIONAL_ID(5), DELEGATION_TOKEN(6), USER(7);

    private final byte code;

    ResourceType(int code) {
        this.code = (byte) code;
    }

    public byte code() {
        return code;
    }

    public static ResourceType fromCode(byte code) {
        for (ResourceType type : values()) {
            if (type.code == code) {
                return type;
            }
        }
        return UNKNOWN;
    }
}
