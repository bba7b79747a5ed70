package io.minibroker.broker.feature;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.common.errors.InvalidUpdateVersionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * UpdateFeatures in a three-node cluster: sent to a broker that is not the controller, forwarded there, checked by
 * the controller (whose id Kafka's messages name), and the new levels reach every broker's ApiVersions with the image,
 * at an epoch above the old one.
 */
@Timeout(120)
class ClusterFeaturesTest {

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of());
    }

    @AfterEach
    void close() {
        cluster.close();
    }

    @Test
    void anUpdateThroughABrokerIsMadeByTheControllerAndFollowedByEveryBroker() throws Exception {
        long epochBefore;
        try (Admin admin = adminOf(2)) {
            epochBefore = admin.describeFeatures().featureMetadata().get().finalizedFeaturesEpoch().orElseThrow();
            assertThatThrownBy(() -> admin.updateFeatures(Map.of("transaction.version", new FeatureUpdate((short) 3,
                    FeatureUpdate.UpgradeType.UPGRADE)), new UpdateFeaturesOptions()).all().get())
                    .isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(InvalidUpdateVersionException.class)
                    .hasMessageEndingWith("Invalid update version 3 for feature transaction.version. Local controller"
                            + " 0 only supports versions 0-2");
            admin.updateFeatures(Map.of("transaction.version", new FeatureUpdate((short) 1,
                    FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)), new UpdateFeaturesOptions()).all().get();
            // Asked of node 2 itself: the admin client's DescribeFeatures goes to any node it knows.
            assertThat(finalizedTransactionVersion(2))
                    .as("the forwarding broker answers once it has the image that follows the change").isEqualTo((short) 1);
        }
        for (int node = 0; node < 3; node++) {
            try (Admin admin = adminOf(node)) {
                await(() -> transactionVersion(describe(admin)) == 1, "node's finalized transaction.version 1");
                assertThat(describe(admin).finalizedFeaturesEpoch()).hasValueSatisfying(
                        epoch -> assertThat(epoch).isGreaterThan(epochBefore));
            }
        }
    }

    private Admin adminOf(int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }

    private static FeatureMetadata describe(Admin admin) {
        try {
            return admin.describeFeatures().featureMetadata().get();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The finalized transaction.version a node's own ApiVersions answer gives (0 when not finalized). */
    private short finalizedTransactionVersion(int node) throws IOException {
        try (RawClient client = new RawClient(cluster.node(node).boundPort("PLAINTEXT"))) {
            return client.askApiVersions((short) 3, 1).finalizedFeatures().stream()
                    .filter(feature -> feature.name().equals("transaction.version"))
                    .map(ApiVersionsResponseView.FinalizedFeatureKey::maxVersionLevel).findFirst().orElse((short) 0);
        }
    }

    private static short transactionVersion(FeatureMetadata features) {
        FinalizedVersionRange range = features.finalizedFeatures().get("transaction.version");
        return range == null ? 0 : range.maxVersionLevel();
    }
}
