package io.minibroker.broker.server;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class EnvironmentConfigTest {

    @Test
    void oneUnderscoreIsADotTwoAnUnderscoreThreeADash() {
        assertThat(EnvironmentConfig.key("NUM_PARTITIONS")).isEqualTo("num.partitions");
        assertThat(EnvironmentConfig.key("LISTENER_NAME_SASL__PLAINTEXT_PLAIN_SASL_JAAS_CONFIG"))
                .isEqualTo("listener.name.sasl_plaintext.plain.sasl.jaas.config");
        assertThat(EnvironmentConfig.key("LISTENER_NAME_MY___LISTENER_PLAIN_SASL_JAAS_CONFIG"))
                .isEqualTo("listener.name.my-listener.plain.sasl.jaas.config");
        assertThat(EnvironmentConfig.key("NODE_ID")).isEqualTo("node.id");
    }

    @Test
    void edgesAreReadAsTheImageReadsThem() {
        // The image's pattern needs a character either side of a lone underscore, and its matches do not overlap.
        assertThat(EnvironmentConfig.key("_LEADING")).isEqualTo("_leading");
        assertThat(EnvironmentConfig.key("TRAILING_")).isEqualTo("trailing_");
        assertThat(EnvironmentConfig.key("A_B_C")).isEqualTo("a.b_c");
        assertThat(EnvironmentConfig.key("A_B_C_D")).isEqualTo("a.b_c.d");
        assertThat(EnvironmentConfig.key("AB_CD_EF")).isEqualTo("ab.cd.ef");
        // Four or more: threes first, then a two, a lone one left.
        assertThat(EnvironmentConfig.key("A____B")).isEqualTo("a-_b");
        assertThat(EnvironmentConfig.key("A______B")).isEqualTo("a--b");
    }

    @Test
    void takesOnlyKafkaVariablesAndLeavesOutTheScriptsOptions() {
        Map<String, String> environment = new HashMap<>();
        environment.put("KAFKA_NUM_PARTITIONS", "3");
        environment.put("KAFKA_ADVERTISED_LISTENERS", "PLAINTEXT://broker:9092");
        environment.put("KAFKA_SASL_JAAS_CONFIG", "x required username=\"a\";"); // a value with '=' is kept
        environment.put("KAFKA_HEAP_OPTS", "-Xmx1g");
        environment.put("KAFKA_OPTS", "-Dx=y");
        environment.put("KAFKA_JMX_OPTS", "-Dcom.sun.management.jmxremote");
        environment.put("KAFKA_LOG4J_ROOT_LOGLEVEL", "DEBUG");
        environment.put("KAFKA_VERSION", "4.1.0");
        environment.put("KAFKA_", "nothing after the prefix");
        environment.put("PATH", "/bin");
        environment.put("MY_KAFKA_THING", "1");

        assertThat(EnvironmentConfig.from(environment)).containsExactly(
                Map.entry("advertised.listeners", "PLAINTEXT://broker:9092"),
                Map.entry("num.partitions", "3"),
                Map.entry("sasl.jaas.config", "x required username=\"a\";"));
    }
}
