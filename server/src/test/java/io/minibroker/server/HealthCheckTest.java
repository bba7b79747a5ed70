package io.minibroker.server;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class HealthCheckTest {

    @Test
    void aServingBrokerIsHealthy() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            assertThat(HealthCheck.problem(broker.bootstrapServers())).isNull();
        }
    }

    @Test
    void aSaslListenerIsHealthyWithoutCredentials() throws Exception {
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"secret\";";
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SASL_PLAINTEXT",
                "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.plaintext.plain.sasl.jaas.config", jaas))) {
            assertThat(HealthCheck.problem(broker.bootstrapServers())).isNull();
        }
    }

    @Test
    void nothingListeningIsUnhealthy() throws Exception {
        // Bound and never listening, held for the check: a port only freed could be taken by another test's broker.
        try (Socket nobody = new Socket()) {
            nobody.bind(new InetSocketAddress(0));
            assertThat(HealthCheck.problem("localhost:" + nobody.getLocalPort())).contains("Connect");
        }
    }

    @Test
    void aMalformedAddressIsUnhealthy() {
        assertThat(HealthCheck.problem("localhost")).isEqualTo("not host:port");
        assertThat(HealthCheck.problem("localhost:http")).isEqualTo("not host:port");
    }
}
