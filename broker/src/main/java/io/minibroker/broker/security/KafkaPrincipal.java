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

    /**
     * The principal of its text, {@code type:name}, split at the first colon as Kafka's
     * SecurityUtils.parseKafkaPrincipal splits it (so a name may hold colons).
     *
     * @throws IllegalArgumentException if the text has no colon
     */
    public static KafkaPrincipal parse(String text) {
        int colon = text == null ? -1 : text.indexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("expected a string in format principalType:principalName but got "
                    + text);
        }
        return new KafkaPrincipal(text.substring(0, colon), text.substring(colon + 1));
    }

    @Override
    public String toString() {
        return principalType + ":" + name;
    }
}
