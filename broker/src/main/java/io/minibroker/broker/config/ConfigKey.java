package io.minibroker.broker.config;

import java.util.function.Function;
import java.util.function.Predicate;

/**
 * One configuration key: its Kafka name, how its text is parsed, its default (Kafka's, unless noted where it is
 * defined) and what values are valid. A key whose default is null has no value unless set.
 */
public record ConfigKey<T>(String name, Function<String, T> parser, T defaultValue, Predicate<T> valid,
                           String validDescription) {

    T parse(String text) {
        T value;
        try {
            value = parser.apply(text.trim());
        } catch (RuntimeException e) {
            throw new ConfigException(name, text, "not " + validDescription);
        }
        if (value != null && !valid.test(value)) {
            throw new ConfigException(name, text, "must be " + validDescription);
        }
        return value;
    }

    static ConfigKey<Integer> intKey(String name, Integer defaultValue, int min) {
        return new ConfigKey<>(name, Integer::valueOf, defaultValue, v -> v >= min, "an integer >= " + min);
    }

    static ConfigKey<Integer> intKey(String name, Integer defaultValue, int min, int max) {
        return new ConfigKey<>(name, Integer::valueOf, defaultValue, v -> v >= min && v <= max,
                "an integer from " + min + " to " + max);
    }

    static ConfigKey<Long> longKey(String name, Long defaultValue, long min) {
        return new ConfigKey<>(name, Long::valueOf, defaultValue, v -> v >= min, "a long >= " + min);
    }

    static ConfigKey<Boolean> booleanKey(String name, boolean defaultValue) {
        return new ConfigKey<>(name, ConfigKey::parseBoolean, defaultValue, v -> true, "true or false");
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
        return new ConfigKey<>(name, Function.identity(), defaultValue, values::contains, "one of " + values);
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
