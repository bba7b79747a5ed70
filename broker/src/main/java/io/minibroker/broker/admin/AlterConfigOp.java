package io.minibroker.broker.admin;

/**
 * One config of an AlterConfigs or IncrementalAlterConfigs resource, whatever the resource's type: its name, its value
 * (null for a DELETE) and Kafka's operation id; the legacy AlterConfigs' read as {@link #SET}.
 */
public record AlterConfigOp(String name, String value, byte operation) {

    /** Kafka's AlterConfigOp.OpType ids. */
    public static final byte SET = 0;
    public static final byte DELETE = 1;
    public static final byte APPEND = 2;
    public static final byte SUBTRACT = 3;
}
