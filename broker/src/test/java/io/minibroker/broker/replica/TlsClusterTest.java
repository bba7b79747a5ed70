package io.minibroker.broker.replica;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.security.TestCertificates.ALICE;

/**
 * A cluster whose every listener is SSL with client certificates required, as a Kafka cluster with
 * {@code ssl.client.auth=required} on its inter-broker and controller listeners: brokers reach the controller
 * and each other over TLS with their own key store (presenting the broker certificate) and check the other
 * node's certificate and host name; acks=all with three replicas works, and a client with a certificate
 * produces and consumes. The same with SASL_SSL everywhere.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlsClusterTest {

    @Test
    void nodesReplicateOverTlsBetweenThem() throws Exception {
        SecuredClusters.replicateAcksAll(SecuredClusters.tlsEverywhere("PKCS12"),
                SecuredClusters.tlsClient("PKCS12", ALICE));
    }

    /** SASL_SSL everywhere: nodes connect over TLS, then sign in with PLAIN, as on SASL_PLAINTEXT. */
    @Test
    void nodesReplicateOverSaslSslBetweenThem() throws Exception {
        var settings = SecuredClusters.saslEverywhere("SASL_SSL", "PLAIN");
        settings.putAll(SecuredClusters.CERTIFICATES.brokerSettings("", "JKS"));
        var client = SecuredClusters.saslClient("SASL_SSL", "PLAIN", "alice", "alice-secret");
        client.putAll(SecuredClusters.CERTIFICATES.clientSettings("JKS", null));
        SecuredClusters.replicateAcksAll(settings, client);
    }
}
