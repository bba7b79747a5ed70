package io.minibroker.broker.config;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Each config's type as Kafka 4.3.1 defines it, for DescribeConfigs to name: a broker config's from KafkaConfig's
 * ConfigDef, a topic config's from LogConfig's, a group config's from GroupConfig's. The table is
 * {@code kafka-config-types.properties} beside this class, generated from those ConfigDefs by
 * {@code KafkaConfigTypesTest} (which fails when the file and Kafka's definitions differ): facts about Kafka's
 * interface, like the protocol's schemas, kept as data rather than a dependency on Kafka's jars.
 */
public final class KafkaConfigTypes {

    private static final String RESOURCE = "kafka-config-types.properties";
    private static final String LISTENER_PREFIX = "listener.name.";
    private static final Map<String, ConfigType> TYPES = load();

    private KafkaConfigTypes() {
    }

    /**
     * A broker config's type; a listener's own value of one ({@code listener.name.<listener>.<config>}, with a SASL
     * mechanism before a SASL config: {@code listener.name.<listener>.<mechanism>.sasl.jaas.config}) has the type of
     * the config it sets, as Kafka's KafkaConfig.configType finds it through the config's synonyms.
     */
    public static ConfigType broker(String name) {
        ConfigType exact = TYPES.get("broker." + name);
        if (exact != null || !name.startsWith(LISTENER_PREFIX)) {
            return exact != null ? exact : ConfigType.UNKNOWN;
        }
        int listenerEnd = name.indexOf('.', LISTENER_PREFIX.length());
        if (listenerEnd < 0) {
            return ConfigType.UNKNOWN;
        }
        String config = name.substring(listenerEnd + 1);
        ConfigType type = TYPES.get("broker." + config);
        int mechanismEnd = config.indexOf('.');
        if (type == null && mechanismEnd >= 0 && config.startsWith("sasl.", mechanismEnd + 1)) {
            type = TYPES.get("broker." + config.substring(mechanismEnd + 1));
        }
        return type != null ? type : ConfigType.UNKNOWN;
    }

    public static ConfigType topic(String name) {
        return TYPES.getOrDefault("topic." + name, ConfigType.UNKNOWN);
    }

    public static ConfigType group(String name) {
        return TYPES.getOrDefault("group." + name, ConfigType.UNKNOWN);
    }

    private static Map<String, ConfigType> load() {
        Properties table = new Properties();
        try (InputStream in = KafkaConfigTypes.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing from the broker's jar");
            }
            table.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, ConfigType> types = new HashMap<>();
        table.forEach((name, type) -> types.put((String) name, ConfigType.valueOf((String) type)));
        return Map.copyOf(types);
    }
}
