package io.minibroker.broker.replica;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateDelegationTokenOptions;
import org.apache.kafka.clients.admin.ExpireDelegationTokenOptions;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.DelegationTokenOwnerMismatchException;
import org.apache.kafka.common.errors.UnsupportedByAuthenticationException;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.token.delegation.DelegationToken;
import org.apache.kafka.common.security.token.delegation.TokenInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Delegation tokens in a three-node cluster, as Kafka keeps them: asked for through any broker, which checks what only
 * it can see (how the client signed in) and forwards the change to the controller; kept by the controller, across its
 * restart; handed to every broker in its image, so that a token signs in and is described at every node; removed by
 * the controller's expiry check, after which no broker signs it in. Node 0 is the controller's; the tokens are asked
 * for through nodes 1 and 2.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterDelegationTokensTest {

    private static final long EXPIRY_TIME_MS = 3_600_000;
    private static final long CHECK_INTERVAL_MS = 60_000;

    private final ManualClock clock = new ManualClock();

    @Test
    void aTokenMadeThroughOneBrokerSignsInAtEveryNodeAndOutlivesTheControllersRestartUntilExpired() throws Exception {
        Map<String, Object> alice = SecuredClusters.saslClient("SASL_PLAINTEXT", "PLAIN", "alice", "alice-secret");
        Map<String, Object> superUser = SecuredClusters.saslClient("SASL_PLAINTEXT", "PLAIN", "broker",
                "broker-secret");
        try (MiniCluster cluster = MiniCluster.start(3, settings(), clock)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            DelegationToken token;
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 1, alice))) {
                token = admin.createDelegationToken().delegationToken().get();
            }
            TokenInformation info = token.tokenInfo();
            assertThat(info.owner()).isEqualTo(new KafkaPrincipal("User", "alice"));
            assertThat(info.tokenRequester()).as("the client's principal, not the forwarding broker's")
                    .isEqualTo(new KafkaPrincipal("User", "alice"));
            long issued = info.issueTimestamp();
            assertThat(info.expiryTimestamp()).isEqualTo(issued + EXPIRY_TIME_MS);
            Map<String, Object> withToken = tokenClient(token);
            await(() -> SecuredClusters.signsIn(cluster, 0, withToken) && SecuredClusters.signsIn(cluster, 2, withToken),
                    "the token signs in at the controller's node and at node 2");

            try (Admin tokenAdmin = Admin.create(SecuredClusters.atNode(cluster, 2, withToken))) {
                assertThatThrownBy(() -> tokenAdmin.createDelegationToken().delegationToken().get())
                        .as("a token begets no tokens: node 2 saw how the client signed in")
                        .hasCauseInstanceOf(UnsupportedByAuthenticationException.class);
            }
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 2, superUser))) {
                assertThatThrownBy(() -> admin.expireDelegationToken(token.hmac()).expiryTimestamp().get())
                        .as("a super user is neither the owner nor a renewer")
                        .hasCauseInstanceOf(DelegationTokenOwnerMismatchException.class);
            }

            clock.advance(1_000);
            long renewed;
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 2, alice))) {
                // The controller renews for the client the broker forwarded, alice, who owns the token.
                renewed = admin.renewDelegationToken(token.hmac()).expiryTimestamp().get();
            }
            assertThat(renewed).isEqualTo(issued + 1_000 + EXPIRY_TIME_MS);
            await(() -> describedExpiry(cluster, 1, alice, info.tokenId()).equals(Optional.of(renewed)),
                    "node 1 describes the renewal made through node 2");

            cluster.stop(0);
            cluster.restart(0);
            await(() -> SecuredClusters.signsIn(cluster, 0, withToken) && SecuredClusters.signsIn(cluster, 1, withToken),
                    "the token kept by the restarted controller");
            assertThat(describedExpiry(cluster, 0, alice, info.tokenId())).contains(renewed);

            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 1, alice))) {
                admin.expireDelegationToken(token.hmac(), new ExpireDelegationTokenOptions().expiryTimePeriodMs(-1))
                        .expiryTimestamp().get();
            }
            await(() -> !SecuredClusters.signsIn(cluster, 2, withToken), "node 2 no longer signs the expired token in");
            assertThat(describedExpiry(cluster, 2, alice, info.tokenId())).isEmpty();
        }
    }

    @Test
    void theControllersExpiryCheckRemovesATokenFromEveryBroker() throws Exception {
        Map<String, Object> alice = SecuredClusters.saslClient("SASL_PLAINTEXT", "PLAIN", "alice", "alice-secret");
        try (MiniCluster cluster = MiniCluster.start(3, settings(), clock)) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three brokers registered");
            DelegationToken token;
            try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, 2, alice))) {
                token = admin.createDelegationToken(new CreateDelegationTokenOptions().maxLifetimeMs(10_000))
                        .delegationToken().get();
            }
            String id = token.tokenInfo().tokenId();
            await(() -> describedExpiry(cluster, 1, alice, id).isPresent(), "node 1 holds the token");

            clock.advance(10_000 + CHECK_INTERVAL_MS);

            await(() -> describedExpiry(cluster, 1, alice, id).isEmpty()
                    && describedExpiry(cluster, 2, alice, id).isEmpty(), "every broker dropped the expired token");
            assertThat(SecuredClusters.signsIn(cluster, 1, tokenClient(token))).isFalse();
        }
    }

    private static Map<String, String> settings() {
        Map<String, String> settings = SecuredClusters.saslEverywhere("SASL_PLAINTEXT", "PLAIN,SCRAM-SHA-256");
        settings.put("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER);
        settings.put("super.users", "User:broker");
        settings.put("delegation.token.secret.key", "cluster-token-secret");
        settings.put("delegation.token.expiry.time.ms", Long.toString(EXPIRY_TIME_MS));
        settings.put("delegation.token.expiry.check.interval.ms", Long.toString(CHECK_INTERVAL_MS));
        return settings;
    }

    /** A client signing in with the token, as kafka-clients do. */
    private static Map<String, Object> tokenClient(DelegationToken token) {
        Map<String, Object> client = new HashMap<>();
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        client.put(SaslConfigs.SASL_MECHANISM, "SCRAM-SHA-256");
        client.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.scram.ScramLoginModule required"
                + " username=\"" + token.tokenInfo().tokenId() + "\" password=\"" + token.hmacAsBase64String()
                + "\" tokenauth=\"true\";");
        return client;
    }

    /** The token's expiry time as this node describes it to {@code client}; empty if it lists no such token. */
    private static Optional<Long> describedExpiry(MiniCluster cluster, int node, Map<String, Object> client,
                                                  String tokenId) {
        try (Admin admin = Admin.create(SecuredClusters.atNode(cluster, node, client))) {
            List<DelegationToken> tokens = admin.describeDelegationToken().delegationTokens().get();
            return tokens.stream().filter(token -> token.tokenInfo().tokenId().equals(tokenId))
                    .map(token -> token.tokenInfo().expiryTimestamp()).findFirst();
        } catch (ExecutionException e) {
            throw new AssertionError("node " + node + " did not describe the tokens", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
