package io.minibroker.broker.quota;

/**
 * Kafka's client quota types (its QuotaType), each with a quota manager of its own: the name is the type of the
 * manager's metrics ({@code kafka.server:type=Produce,...}).
 */
public enum QuotaType {
    PRODUCE("Produce"),
    FETCH("Fetch"),
    REQUEST("Request"),
    CONTROLLER_MUTATION("ControllerMutation");

    private final String kafkaName;

    QuotaType(String kafkaName) {
        this.kafkaName = kafkaName;
    }

    /** Kafka's QuotaType.toString: its metrics' type. */
    public String kafkaName() {
        return kafkaName;
    }
}
