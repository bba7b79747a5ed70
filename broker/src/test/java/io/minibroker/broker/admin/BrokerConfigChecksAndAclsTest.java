package io.minibroker.broker.admin;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.network.RawClient;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.AlterConfigsRequestView;
import io.minibroker.protocol.message.view.AlterConfigsResponseView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsRequestView;
import io.minibroker.protocol.message.view.IncrementalAlterConfigsResponseView;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * (Incremental)AlterConfigs of the BROKER and BROKER_LOGGER resources by a principal denied ALTER_CONFIGS on the
 * cluster: answered as Kafka 4.3.1 answers them, whose broker preprocesses a broker change (ConfigAdminManager: this
 * broker's id, the dynamic-config rules) before its controller authorizes it, refuses a logger in the legacy
 * AlterConfigs as an unknown resource type first, and authorizes an IncrementalAlterConfigs logger change before it
 * looks at its node id. On a single node and through a cluster's broker, which forwards what it preprocessed. The
 * client and the nodes are ANONYMOUS on PLAINTEXT, allowed what no ACL names, and CLUSTER_ACTION; the client is
 * denied ALTER_CONFIGS on the cluster.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BrokerConfigChecksAndAclsTest {

    private static final Map<String, String> ACLS = Map.of("authorizer.class.name", BrokerConfig.STANDARD_AUTHORIZER,
            "allow.everyone.if.no.acl.found", "true");
    private static final short INVALID_REQUEST = Errors.INVALID_REQUEST.code();
    private static final short CLUSTER_REFUSED = Errors.CLUSTER_AUTHORIZATION_FAILED.code();
    /** A dynamic broker config whose change passes preprocessing, so that only the ACLs refuse it. */
    private static final String DYNAMIC = "log.cleaner.threads";

    @Test
    void aSingleNodeAnswersItsPreprocessingBeforeTheClusterCheck() throws Exception {
        Map<String, String> settings = new HashMap<>(ACLS);
        settings.put("node.id", "5");
        try (EmbeddedBroker broker = EmbeddedBroker.start(settings);
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                     broker.bootstrapServers()));
             RawClient client = new RawClient(broker.broker().boundPort("PLAINTEXT"))) {
            denyAlterConfigsOnTheCluster(admin);
            assertKafkasOrder(client, 5);
        }
    }

    @Test
    void aClusterBrokerAnswersItsPreprocessingBeforeTheClusterCheck() throws Exception {
        int broker = 1;
        try (MiniCluster cluster = MiniCluster.start(2, ACLS);
             Admin admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG,
                     cluster.bootstrapServers()));
             RawClient client = new RawClient(cluster.node(broker).boundPort("PLAINTEXT"))) {
            await(() -> cluster.controller().membership().liveBrokers().size() == 2, "two brokers registered");
            denyAlterConfigsOnTheCluster(admin);
            await(() -> incremental(client, ConfigResources.BROKER, "", DYNAMIC, "2")
                    .equals(tuple("", CLUSTER_REFUSED, "Cluster authorization failed.")),
                    "the ACL applied by node " + broker);
            assertKafkasOrder(client, broker);
        }
    }

    /** With an ACL on the cluster, the nodes' CLUSTER_ACTION needs one too: none found no longer allows it. */
    private static void denyAlterConfigsOnTheCluster(Admin admin) throws Exception {
        ResourcePattern cluster = new ResourcePattern(ResourceType.CLUSTER, "kafka-cluster", PatternType.LITERAL);
        admin.createAcls(List.of(new AclBinding(cluster, new AccessControlEntry("User:ANONYMOUS", "*",
                        AclOperation.CLUSTER_ACTION, AclPermissionType.ALLOW)),
                new AclBinding(cluster, new AccessControlEntry("User:ANONYMOUS", "*", AclOperation.ALTER_CONFIGS,
                        AclPermissionType.DENY)))).all().get();
    }

    private static void assertKafkasOrder(RawClient client, int nodeId) {
        assertThat(incremental(client, ConfigResources.BROKER, "7", DYNAMIC, "2")).as("another broker's id")
                .isEqualTo(tuple("7", INVALID_REQUEST, "Unexpected broker id, expected " + nodeId
                        + ", but received 7"));
        assertThat(incremental(client, ConfigResources.BROKER, "x", DYNAMIC, "2")).as("an id that is no number")
                .isEqualTo(tuple("x", INVALID_REQUEST, "Node id must be an integer, but it is: x"));
        Tuple notDynamic = incremental(client, ConfigResources.BROKER, "", "log.dirs", "/elsewhere");
        assertThat(notDynamic.toList().subList(0, 2)).as("a config not dynamic")
                .containsExactly("", INVALID_REQUEST);
        assertThat((String) notDynamic.toList().get(2)).startsWith("Cannot update these configs dynamically");
        assertThat(incremental(client, ConfigResources.BROKER, "", DYNAMIC, "2")).as("a change that passes")
                .isEqualTo(tuple("", CLUSTER_REFUSED, "Cluster authorization failed."));
        assertThat(incremental(client, ConfigResources.BROKER_LOGGER, "7", "root", "INFO"))
                .as("a logger change is authorized before its node id")
                .isEqualTo(tuple("7", CLUSTER_REFUSED, "Cluster authorization failed."));

        assertThat(legacy(client, ConfigResources.BROKER, "7")).as("another broker's id, legacy")
                .isEqualTo(tuple("7", INVALID_REQUEST, "Unexpected broker id, expected " + nodeId
                        + ", but received 7"));
        assertThat(legacy(client, ConfigResources.BROKER_LOGGER, Integer.toString(nodeId)))
                .as("a logger, which the legacy request never served")
                .isEqualTo(tuple(Integer.toString(nodeId), INVALID_REQUEST, "Unknown resource type 8"));
    }

    /** One resource's IncrementalAlterConfigs SET: its answer's name, error code and message. */
    private static Tuple incremental(RawClient client, byte type, String name, String key, String value) {
        IncrementalAlterConfigsRequestView request = new IncrementalAlterConfigsRequestView();
        request.addResource().resourceType(type).resourceName(name).addConfig().name(key).value(value)
                .configOperation(AlterConfigOp.SET);
        short version = ApiKey.INCREMENTAL_ALTER_CONFIGS.highestStableVersion();
        IncrementalAlterConfigsResponseView.AlterConfigsResourceResponse answer =
                new IncrementalAlterConfigsResponseView(client.exchange(ApiKey.INCREMENTAL_ALTER_CONFIGS, version,
                        request.struct())).responses().get(0);
        return tuple(answer.resourceName(), answer.errorCode(), answer.errorMessage());
    }

    /** One resource's AlterConfigs of {@link #DYNAMIC}: its answer's name, error code and message. */
    private static Tuple legacy(RawClient client, byte type, String name) {
        AlterConfigsRequestView request = new AlterConfigsRequestView();
        request.addResource().resourceType(type).resourceName(name).addConfig().name(DYNAMIC).value("2");
        short version = ApiKey.ALTER_CONFIGS.highestStableVersion();
        AlterConfigsResponseView.AlterConfigsResourceResponse answer = new AlterConfigsResponseView(
                client.exchange(ApiKey.ALTER_CONFIGS, version, request.struct())).responses().get(0);
        return tuple(answer.resourceName(), answer.errorCode(), answer.errorMessage());
    }
}
