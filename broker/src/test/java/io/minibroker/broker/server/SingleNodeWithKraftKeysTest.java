package io.minibroker.broker.server;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Kafka KRaft file without controller.quorum.voters still gives the single-node broker it gave before these keys
 * were known: every listener, the one named as the controller's included, serves clients and is advertised.
 */
class SingleNodeWithKraftKeysTest {

    @Test
    void everyListenerServesClientsWithoutVoters() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(Map.of("process.roles", "broker,controller",
                "controller.listener.names", "CONTROLLER",
                "listeners", "PLAINTEXT://localhost:0,CONTROLLER://localhost:0"))) {
            int controllerPort = kafka.broker().boundPort("CONTROLLER");

            assertThat(MetadataRoundTrip.advertisedBrokers("localhost", controllerPort))
                    .containsExactly("localhost:" + controllerPort);
        }
    }
}
