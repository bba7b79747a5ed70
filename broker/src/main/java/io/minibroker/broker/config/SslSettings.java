package io.minibroker.broker.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * One listener's TLS settings ({@link SslKeys}): each key's value as that listener sees it, and the name it was
 * set under (prefixed or not), so that a message about a bad value names the key the user wrote.
 */
public record SslSettings(String listenerName, Map<String, String> values, Map<String, String> names) {

    /** The value of this {@code ssl.*} key, or null if it has none. */
    public String get(String key) {
        return values.get(key);
    }

    /** A list-valued key's entries; empty if unset or blank. */
    public List<String> list(String key) {
        String value = values.get(key);
        return value == null ? List.of()
                : Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    /** The configuration key this {@code ssl.*} key's value came from, for messages. */
    public String nameOf(String key) {
        return names.getOrDefault(key, key);
    }

    /** A ConfigException naming where this key was set; passwords and keys are never echoed. */
    public ConfigException invalid(String key, String reason) {
        boolean secret = key.contains("password") || key.equals(SslKeys.KEYSTORE_KEY);
        return new ConfigException(nameOf(key), secret ? "(hidden)" : get(key), reason);
    }
}
