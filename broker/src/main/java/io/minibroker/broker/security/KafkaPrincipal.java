package io.minibroker.broker.security;

/**
 * Who a connection is, as Kafka's KafkaPrincipal names it ({@code User:alice}): from SASL on a SASL listener, from
 * the client's certificate (mapped by {@code ssl.principal.mapping.rules}) on an SSL listener that asked for one,
 * else {@code User:ANONYMOUS}, as Kafka's DefaultKafkaPrincipalBuilder decides.
 */
public record KafkaPrincipal(String principalType, String name) {

    public static final String USER_TYPE = "User";
    public static final KafkaPrincipal ANONYMOUS = new KafkaPrincipal(USER_TYPE, "ANONYMOUS");

    public static KafkaPrincipal user(String name) {
        return new KafkaPrincipal(USER_TYPE, name);
    }

    @Override
    public String toString() {
        return principalType + ":" + name;
    }
}
