package io.minibroker.broker.replica;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.embedded.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A cluster whose every listener is SASL_PLAINTEXT, as a Kafka cluster with sasl.mechanism.inter.broker.protocol
 * and sasl.mechanism.controller.protocol set to PLAIN: brokers sign in to the controller (registration, heartbeats,
 * the image, forwarded admin requests) and to each other (replica fetchers) with their listener's own username and
 * password, so acks=all with three replicas works; a client signs in as its user.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SaslClusterTest {

    @Test
    void brokersSignInToTheControllerAndToEachOtherAndReplicate() throws Exception {
        SecuredClusters.replicateAcksAll(SecuredClusters.saslEverywhere("SASL_PLAINTEXT", "PLAIN"),
                SecuredClusters.saslClient("SASL_PLAINTEXT", "PLAIN", "alice", "alice-secret"));
    }

    @Test
    void theMechanismNodesSignInWithMustBePlain() {
        Map<String, String> gssapi = SecuredClusters.saslEverywhere("SASL_PLAINTEXT", "PLAIN");
        gssapi.remove("sasl.mechanism.inter.broker.protocol");
        assertThatThrownBy(() -> MiniCluster.start(1, gssapi)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("sasl.mechanism.inter.broker.protocol");
    }
}
