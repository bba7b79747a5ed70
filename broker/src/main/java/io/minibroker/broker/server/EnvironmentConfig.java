package io.minibroker.broker.server;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Broker configuration from environment variables, named as the apache/kafka image names them, so that a
 * compose file or a {@code docker run -e} written for that image configures this broker too: {@code KAFKA_}
 * followed by the key upper-cased, with {@code .} written {@code _}, {@code _} written {@code __} and {@code -}
 * written {@code ___} ({@code KAFKA_NUM_PARTITIONS=3} is {@code num.partitions=3}).
 *
 * <p>Some {@code KAFKA_} variables are not keys but options of Kafka's scripts (the JVM's heap and options, its
 * logging); they are left out as the image leaves them out.
 */
public final class EnvironmentConfig {

    static final String PREFIX = "KAFKA_";

    /**
     * The apache/kafka image's exclusions, with {@code KAFKA_HEAP_OPTS} spelled in full (the image's list has
     * {@code KAFKA_HEAP_OPT}, which lets the heap options through as a key {@code heap.opts}).
     */
    static final Set<String> NOT_KEYS = Set.of("KAFKA_VERSION", "KAFKA_HEAP_OPTS", "KAFKA_LOG4J_OPTS", "KAFKA_OPTS",
            "KAFKA_JMX_OPTS", "KAFKA_JVM_PERFORMANCE_OPTS", "KAFKA_GC_LOG_OPTS", "KAFKA_LOG4J_ROOT_LOGLEVEL",
            "KAFKA_LOG4J_LOGGERS", "KAFKA_TOOLS_LOG4J_LOGLEVEL");

    private EnvironmentConfig() {
    }

    /** The configuration the variables of {@code environment} give, by key. */
    public static Map<String, String> from(Map<String, String> environment) {
        Map<String, String> config = new TreeMap<>(); // sorted: the same environment gives the same order of keys
        environment.forEach((variable, value) -> {
            if (variable.startsWith(PREFIX) && variable.length() > PREFIX.length() && !NOT_KEYS.contains(variable)) {
                config.put(key(variable.substring(PREFIX.length())), value);
            }
        });
        return config;
    }

    /**
     * The key a variable's name (without {@code KAFKA_}) stands for, read as the image reads it, edges included:
     * a lone underscore between two other characters is {@code .}, then {@code ___} is {@code -}, then {@code __}
     * is {@code _}. The image finds the lone underscores with a pattern of three characters whose matches do not
     * overlap, so of two lone underscores one character apart only the first is a dot ({@code A_B_C} is
     * {@code a.b_c}), and a lone underscore at either end stays one; runs of four or more, which the image leaves
     * undefined, come out as its replacements make them (threes first, then a two, a lone one left).
     */
    static String key(String name) {
        StringBuilder key = new StringBuilder(name.length());
        int matchedUpTo = 0; // where the image's pattern, matched at the last dot, resumes its search
        int i = 0;
        while (i < name.length()) {
            char c = name.charAt(i);
            if (c != '_') {
                key.append(Character.toLowerCase(c));
                i++;
                continue;
            }
            int start = i;
            while (i < name.length() && name.charAt(i) == '_') {
                i++;
            }
            int run = i - start;
            if (run == 1) {
                boolean dot = start > 0 && i < name.length() && start - 1 >= matchedUpTo;
                key.append(dot ? '.' : '_');
                if (dot) {
                    matchedUpTo = i + 1;
                }
                continue;
            }
            key.append("-".repeat(run / 3));
            if (run % 3 != 0) {
                key.append('_');
            }
        }
        return key.toString();
    }
}
