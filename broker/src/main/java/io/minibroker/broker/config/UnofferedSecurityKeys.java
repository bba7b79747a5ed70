package io.minibroker.broker.config;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Kafka's security keys that this broker does not implement. An unknown key is otherwise only warned about, which
 * for these would serve a broker less secure than its file asks for: re-authentication configured but never
 * asked for. So each of them stops the start, naming the key. A key moves out of here when the broker
 * implements it (the {@code ssl.*} keys have: {@link SslKeys} refuses those of them it does not implement).
 */
final class UnofferedSecurityKeys {

    /** Keys refused whatever their value. */
    private static final List<Pattern> ANY_VALUE = List.of(
            // Kerberos, OAUTHBEARER and custom SASL callbacks, globally or per listener and mechanism.
            Pattern.compile("(listener\\.name\\.[^.]+\\.([^.]+\\.)?)?sasl\\.(kerberos|oauthbearer|login)\\..+"),
            Pattern.compile("(listener\\.name\\.[^.]+\\.([^.]+\\.)?)?sasl\\.server\\.callback\\.handler\\.class"));

    /**
     * Keys whose default turns the feature off, and that default: refused only when set to something else. Kafka's
     * own principal builder, named, is the one this broker behaves as.
     */
    private static final Map<Pattern, Pattern> UNLESS_DEFAULT = Map.of(
            Pattern.compile("principal\\.builder\\.class"),
            Pattern.compile("\\s*org\\.apache\\.kafka\\.common\\.security\\.authenticator\\.DefaultKafkaPrincipalBuilder\\s*"));

    private UnofferedSecurityKeys() {
    }

    /** Throws {@link ConfigException} if this key, unknown to the broker, asks for security it does not offer. */
    static void check(String key, String value) {
        Pattern defaultValue = UNLESS_DEFAULT.entrySet().stream()
                .filter(entry -> entry.getKey().matcher(key).matches())
                .map(Map.Entry::getValue).findFirst().orElse(null);
        boolean refused = defaultValue != null
                ? !defaultValue.matcher(value).matches()
                : ANY_VALUE.stream().anyMatch(pattern -> pattern.matcher(key).matches());
        if (refused) {
            throw new ConfigException(key, value, "minibroker implements no " + feature(key)
                    + "; it would run less secure than configured, so it does not start");
        }
    }

    private static String feature(String key) {
        if (key.contains("kerberos")) {
            return "Kerberos (GSSAPI)";
        }
        if (key.contains("oauthbearer") || key.contains("sasl.login.")) {
            return "OAUTHBEARER";
        }
        if (key.contains("callback.handler")) {
            return "custom SASL callback handlers";
        }
        if (key.equals("principal.builder.class")) {
            return "custom principal builders";
        }
        throw new IllegalArgumentException(key);
    }
}
