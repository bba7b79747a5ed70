package io.minibroker.broker.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kafka's {@code ssl.*} keys (its SslConfigs and the broker's BrokerSecurityConfigs), globally or for one listener
 * as {@code listener.name.<listener, lower case>.ssl.*}: a family of keys rather than single ones, so kept apart
 * from {@link BrokerConfig}'s table. A listener's value of a key is its prefixed one, else the global one, else
 * Kafka's default, as Kafka's KafkaConfig.valuesWithPrefixOverride gives it. A key of the family this broker does
 * not implement ({@code ssl.provider}, {@code ssl.engine.factory.class}, anything misspelt) stops the start,
 * naming it, rather than being ignored.
 */
public final class SslKeys {

    public static final String PROTOCOL = "ssl.protocol";
    public static final String ENABLED_PROTOCOLS = "ssl.enabled.protocols";
    public static final String CIPHER_SUITES = "ssl.cipher.suites";
    public static final String KEYSTORE_TYPE = "ssl.keystore.type";
    public static final String KEYSTORE_LOCATION = "ssl.keystore.location";
    public static final String KEYSTORE_PASSWORD = "ssl.keystore.password";
    public static final String KEY_PASSWORD = "ssl.key.password";
    public static final String KEYSTORE_KEY = "ssl.keystore.key";
    public static final String KEYSTORE_CERTIFICATE_CHAIN = "ssl.keystore.certificate.chain";
    public static final String TRUSTSTORE_TYPE = "ssl.truststore.type";
    public static final String TRUSTSTORE_LOCATION = "ssl.truststore.location";
    public static final String TRUSTSTORE_PASSWORD = "ssl.truststore.password";
    public static final String TRUSTSTORE_CERTIFICATES = "ssl.truststore.certificates";
    public static final String KEYMANAGER_ALGORITHM = "ssl.keymanager.algorithm";
    public static final String TRUSTMANAGER_ALGORITHM = "ssl.trustmanager.algorithm";
    public static final String ENDPOINT_IDENTIFICATION_ALGORITHM = "ssl.endpoint.identification.algorithm";
    public static final String SECURE_RANDOM_IMPLEMENTATION = "ssl.secure.random.implementation";
    public static final String CLIENT_AUTH = "ssl.client.auth";
    public static final String PRINCIPAL_MAPPING_RULES = "ssl.principal.mapping.rules";
    /** Govern Kafka's dynamic keystore updates, which are not offered here: accepted, and false changes nothing. */
    private static final String ALLOW_DN_CHANGES = "ssl.allow.dn.changes";
    private static final String ALLOW_SAN_CHANGES = "ssl.allow.san.changes";

    /** Every key offered, with Kafka's default (null: none). */
    private static final Map<String, String> DEFAULTS = defaults();
    /** Keys whose value is one of a few words, and those words. */
    private static final Map<String, List<String>> CHOICES = Map.of(
            CLIENT_AUTH, List.of("none", "requested", "required"),
            ALLOW_DN_CHANGES, List.of("false", "true"),
            ALLOW_SAN_CHANGES, List.of("false", "true"));
    private static final Pattern KEY = Pattern.compile("(listener\\.name\\.([^.]+)\\.)?(ssl\\..+)");

    private SslKeys() {
    }

    private static Map<String, String> defaults() {
        Map<String, String> defaults = new LinkedHashMap<>();
        defaults.put(PROTOCOL, "TLSv1.3");
        defaults.put(ENABLED_PROTOCOLS, "TLSv1.2,TLSv1.3");
        defaults.put(CIPHER_SUITES, null);
        defaults.put(KEYSTORE_TYPE, "JKS");
        defaults.put(KEYSTORE_LOCATION, null);
        defaults.put(KEYSTORE_PASSWORD, null);
        defaults.put(KEY_PASSWORD, null);
        defaults.put(KEYSTORE_KEY, null);
        defaults.put(KEYSTORE_CERTIFICATE_CHAIN, null);
        defaults.put(TRUSTSTORE_TYPE, "JKS");
        defaults.put(TRUSTSTORE_LOCATION, null);
        defaults.put(TRUSTSTORE_PASSWORD, null);
        defaults.put(TRUSTSTORE_CERTIFICATES, null);
        defaults.put(KEYMANAGER_ALGORITHM, "SunX509");
        defaults.put(TRUSTMANAGER_ALGORITHM, "PKIX");
        defaults.put(ENDPOINT_IDENTIFICATION_ALGORITHM, "https");
        defaults.put(SECURE_RANDOM_IMPLEMENTATION, null);
        defaults.put(CLIENT_AUTH, "none");
        defaults.put(PRINCIPAL_MAPPING_RULES, "DEFAULT");
        defaults.put(ALLOW_DN_CHANGES, "false");
        defaults.put(ALLOW_SAN_CHANGES, "false");
        return java.util.Collections.unmodifiableMap(defaults);
    }

    /** Whether this key is of the family: {@code ssl.*}, or {@code listener.name.<listener>.ssl.*}. */
    static boolean isSslKey(String name) {
        return KEY.matcher(name).matches();
    }

    /** Checks a key of the family and its value; throws {@link ConfigException} naming it if it is not offered. */
    static void check(String name, String value) {
        Matcher matcher = KEY.matcher(name);
        if (!matcher.matches()) {
            throw new IllegalArgumentException(name + " is not an ssl key");
        }
        String key = matcher.group(3);
        if (!DEFAULTS.containsKey(key)) {
            throw new ConfigException(name, name.contains("password") ? "(hidden)" : value,
                    "minibroker does not implement this TLS setting (it offers "
                    + DEFAULTS.keySet() + "); it would run otherwise than configured, so it does not start");
        }
        List<String> choices = CHOICES.get(key);
        if (choices != null && !choices.contains(value.trim().toLowerCase(Locale.ROOT))) {
            throw new ConfigException(name, value, "must be one of " + choices);
        }
    }

    /**
     * A listener's values of every key offered, from the entries of the family set in the configuration: the
     * listener's prefixed value, else the global one, else Kafka's default; keys without any value are left out.
     */
    static SslSettings forListener(Map<String, String> entries, String listenerName) {
        String prefix = "listener.name." + listenerName.toLowerCase(Locale.ROOT) + ".";
        Map<String, String> values = new LinkedHashMap<>();
        Map<String, String> names = new LinkedHashMap<>();
        DEFAULTS.forEach((key, defaultValue) -> {
            String name = entries.containsKey(prefix + key) ? prefix + key : key;
            String value = entries.getOrDefault(name, defaultValue);
            if (value != null) {
                values.put(key, value.trim());
            }
            names.put(key, name);
        });
        return new SslSettings(listenerName, Map.copyOf(values), Map.copyOf(names));
    }
}
