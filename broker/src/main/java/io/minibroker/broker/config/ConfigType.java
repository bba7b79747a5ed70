package io.minibroker.broker.config;

/**
 * A config's type as DescribeConfigs v3+ names it (Kafka's ConfigDef types, with their ids on the wire): what a client
 * such as kafka-python or Admin's {@code ConfigEntry.type()} shows beside each value. UNKNOWN is a config Kafka has no
 * definition for (a plugin's key, or one of this broker's own).
 */
public enum ConfigType {
    UNKNOWN(0), BOOLEAN(1), STRING(2), INT(3), SHORT(4), LONG(5), DOUBLE(6), LIST(7), CLASS(8), PASSWORD(9);

    private final byte id;

    ConfigType(int id) {
        this.id = (byte) id;
    }

    public byte id() {
        return id;
    }
}
