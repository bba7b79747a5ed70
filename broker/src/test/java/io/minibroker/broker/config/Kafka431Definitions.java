package io.minibroker.broker.config;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.server.config.AbstractKafkaConfig;
import org.apache.kafka.storage.internals.log.LogConfig;

/**
 * Kafka 4.3.1's broker and topic config definitions, read from its jars on the test classpath: the source of the
 * committed tables and of the key sets DescribeConfigs is checked against. KafkaConfig's ConfigDef is composed of
 * definitions from kafka-clients and kafka-server-common, which this module's tests take at 4.4.0: the keys those add
 * are left out ({@link #NEWER_THAN_4_3_1}); a 4.3.1 node lists none of them (measured, docs/config-keys.md).
 */
public final class Kafka431Definitions {

    /** Keys of kafka-clients and kafka-server-common 4.4.0 that Kafka 4.3.1's KafkaConfig does not have. */
    static final Set<String> NEWER_THAN_4_3_1 = Set.of("max.decompressed.message.bytes",
            "sasl.oauthbearer.allow.unverified.audience", "sasl.oauthbearer.allow.unverified.issuer");

    private Kafka431Definitions() {
    }

    /** KafkaConfig's definitions (AbstractKafkaConfig.CONFIG_DEF) by name, without the newer libraries' keys. */
    static Map<String, ConfigDef.ConfigKey> brokerKeys() {
        Map<String, ConfigDef.ConfigKey> keys = new TreeMap<>(AbstractKafkaConfig.CONFIG_DEF.configKeys());
        NEWER_THAN_4_3_1.forEach(keys::remove);
        return keys;
    }

    /** The broker keys a 4.3.1 broker's DescribeConfigs lists whether set or not: KafkaConfig's non-internal ones. */
    public static Set<String> listedBrokerKeys() {
        return nonInternal(brokerKeys());
    }

    /** The topic keys a 4.3.1 broker's DescribeConfigs lists for every topic: LogConfig's non-internal ones. */
    public static Set<String> listedTopicKeys() {
        return nonInternal(LogConfig.configDefCopy().configKeys());
    }

    private static Set<String> nonInternal(Map<String, ConfigDef.ConfigKey> keys) {
        Set<String> names = new TreeSet<>();
        keys.forEach((name, key) -> {
            if (!key.internalConfig) {
                names.add(name);
            }
        });
        return names;
    }
}
