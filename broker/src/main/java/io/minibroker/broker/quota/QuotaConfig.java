package io.minibroker.broker.quota;

import java.util.Map;

/** The client quota keys Kafka 4.3's QuotaConfig defines, by the entities they are set on, with their types. */
public final class QuotaConfig {

    public static final String PRODUCER_BYTE_RATE = "producer_byte_rate";
    public static final String CONSUMER_BYTE_RATE = "consumer_byte_rate";
    public static final String REQUEST_PERCENTAGE = "request_percentage";
    public static final String CONTROLLER_MUTATION_RATE = "controller_mutation_rate";
    public static final String IP_CONNECTION_RATE = "connection_creation_rate";

    /** A key's type, which decides the values Kafka's controller accepts for it. */
    public enum Type {
        INT(Integer.MAX_VALUE, "an INT"), LONG(Long.MAX_VALUE, "a LONG"), DOUBLE(Double.MAX_VALUE, null);

        private final double max;
        private final String article;

        Type(double max, String article) {
            this.max = max;
            this.article = article;
        }

        /** Why Kafka refuses {@code value} (already known to be above 0) for {@code key}; null if it takes it. */
        String invalidReason(String key, double value) {
            if (this == DOUBLE) {
                return null;
            }
            if (value > max) {
                return "Proposed value for " + key + " is too large for " + article + ".";
            }
            return Math.abs(value % 1.0) > 1e-6 ? key + " cannot be a fractional value." : null;
        }
    }

    /** QuotaConfig.userAndClientQuotaConfigs(): the keys of a user, a client id, or both. */
    static final Map<String, Type> USER_AND_CLIENT_KEYS = Map.of(PRODUCER_BYTE_RATE, Type.LONG,
            CONSUMER_BYTE_RATE, Type.LONG, REQUEST_PERCENTAGE, Type.DOUBLE, CONTROLLER_MUTATION_RATE, Type.DOUBLE);

    /** QuotaConfig.ipConfigs(): the keys of an ip. */
    static final Map<String, Type> IP_KEYS = Map.of(IP_CONNECTION_RATE, Type.INT);

    private QuotaConfig() {
    }
}
