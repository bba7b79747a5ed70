package io.minibroker.broker.config;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One configuration key: its Kafka name, how its text is parsed, its default (Kafka's, unless noted where it is
 * defined) and what values are valid. A key whose default is null has no value unless set. A value refused is
 * "Invalid value &lt;text&gt; for configuration &lt;name&gt;: " and why: for the keys of Kafka's plain types (INT,
 * LONG, BOOLEAN, a string of a few values) in the words of Kafka's ConfigDef ("Not a number of type INT", "Value must
 * be at least 0", "String must be one of: ..."), for this broker's own parsers "not"/"must be" and what is valid.
 */
public record ConfigKey<T>(String name, Function<String, T> parser, T defaultValue, Predicate<T> valid,
                           String unparsable, Function<T, String> invalid) {

    /** A key of this broker's own parsing: refused as "not " or "must be " followed by {@code validDescription}. */
    public ConfigKey(String name, Function<String, T> parser, T defaultValue, Predicate<T> valid,
                     String validDescription) {
        this(name, parser, defaultValue, valid, "not " + validDescription, value -> "must be " + validDescription);
    }

    T parse(String text) {
        T value;
        try {
            value = parser.apply(text.trim());
        } catch (RuntimeException e) {
            throw new ConfigException(name, text, unparsable);
        }
        if (value != null && !valid.test(value)) {
            throw new ConfigException(name, text, invalid.apply(value));
        }
        return value;
    }

    static ConfigKey<Integer> intKey(String name, Integer defaultValue, int min) {
        return new ConfigKey<>(name, Integer::valueOf, defaultValue, v -> v >= min, "Not a number of type INT",
                v -> "Value must be at least " + min);
    }

    static ConfigKey<Integer> intKey(String name, Integer defaultValue, int min, int max) {
        return new ConfigKey<>(name, Integer::valueOf, defaultValue, v -> v >= min && v <= max,
                "Not a number of type INT",
                v -> v < min ? "Value must be at least " + min : "Value must be no more than " + max);
    }

    /** An INT Kafka's ConfigDef bounds nowhere (its meaning may still be checked with the other keys). */
    static ConfigKey<Integer> anyIntKey(String name, Integer defaultValue) {
        return new ConfigKey<>(name, Integer::valueOf, defaultValue, v -> true, "Not a number of type INT", v -> null);
    }

    /** A LONG Kafka's ConfigDef bounds nowhere (its meaning may still be checked with the other keys). */
    static ConfigKey<Long> anyLongKey(String name, Long defaultValue) {
        return new ConfigKey<>(name, Long::valueOf, defaultValue, v -> true, "Not a number of type LONG", v -> null);
    }

    static ConfigKey<Long> longKey(String name, Long defaultValue, long min) {
        return new ConfigKey<>(name, Long::valueOf, defaultValue, v -> v >= min, "Not a number of type LONG",
                v -> "Value must be at least " + min);
    }

    static ConfigKey<Boolean> booleanKey(String name, boolean defaultValue) {
        return new ConfigKey<>(name, ConfigKey::parseBoolean, defaultValue, v -> true,
                "Expected value to be either true or false", v -> null);
    }

    static ConfigKey<String> stringKey(String name, String defaultValue) {
        return new ConfigKey<>(name, Function.identity(), defaultValue, v -> true, "a string");
    }

    /** Kafka's PASSWORD type: set or not (no default); DescribeConfigs never shows it (Kafka types it PASSWORD). */
    static ConfigKey<Password> passwordKey(String name) {
        return new ConfigKey<>(name, Password.PARSER, null, v -> true, "a password");
    }

    static ConfigKey<String> oneOf(String name, String defaultValue, String... allowed) {
        java.util.List<String> values = java.util.List.of(allowed);
        String refusal = "String must be one of: " + String.join(", ", values);
        return new ConfigKey<>(name, Function.identity(), defaultValue, values::contains, refusal, v -> refusal);
    }

    /** A comma-separated list, each entry trimmed, empty ones left out. */
    static java.util.List<String> parseNames(String text) {
        return java.util.Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    static Boolean parseBoolean(String text) {
        if (text.equalsIgnoreCase("true")) {
            return true;
        }
        if (text.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException(text);
    }
}
