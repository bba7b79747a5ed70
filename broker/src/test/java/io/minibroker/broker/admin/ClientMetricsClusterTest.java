package io.minibroker.broker.admin;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.AlterConfigsOptions;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListConfigResourcesOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * KIP-714 subscriptions (CLIENT_METRICS config resources) in a cluster, as Kafka's KRaft keeps them: altered through
 * one broker, which forwards the change to the controller; checked there with ClientMetricsConfigs' codes and
 * messages; kept as config records of the image, so that every broker describes and lists them; kept across a
 * controller restart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClientMetricsClusterTest {

    private static final ConfigResource SUBSCRIPTION = new ConfigResource(ConfigResource.Type.CLIENT_METRICS, "cpu");

    @Test
    void aSubscriptionAlteredOnOneBrokerIsDescribedAndListedByEveryBrokerAcrossAControllerRestart() throws Exception {
        MiniCluster cluster = MiniCluster.start(3, Map.of());
        try {
            try (Admin admin = admin(cluster, 1)) {
                admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(set("interval.ms", "1000"))),
                        new AlterConfigsOptions().validateOnly(true)).all().get();
                assertRefused(admin, "interval.ms", "50", InvalidRequestException.class,
                        "Invalid value 50 for interval.ms, interval must be between 100 and 3600000 (1 hour)");
                assertRefused(admin, "match", "client_colour=blue", InvalidConfigurationException.class,
                        "Illegal client matching pattern: client_colour=blue");
                assertRefused(admin, "metrics", "a.,,b.", InvalidConfigurationException.class,
                        "Configuration 'metrics' values must not be empty.");
                assertThat(listed(admin)).as("validateOnly and refusals keep nothing").isEmpty();

                admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(set("interval.ms", "1000"),
                        set("metrics", "org.apache.kafka.producer.,org.apache.kafka.producer."),
                        set("match", "client_id=app.*")))).all().get();
            }
            Map<String, String> expected = Map.of("interval.ms", "1000 DYNAMIC_CLIENT_METRICS_CONFIG",
                    "match", "client_id=app.* DYNAMIC_CLIENT_METRICS_CONFIG",
                    "metrics", "org.apache.kafka.producer.,org.apache.kafka.producer. DYNAMIC_CLIENT_METRICS_CONFIG");
            everyNodeAnswers(cluster, expected, List.of("cpu"));

            cluster.stop(0); // the controller: its subscriptions are read back from its directory
            cluster.restart(0);
            everyNodeAnswers(cluster, expected, List.of("cpu"));

            try (Admin admin = admin(cluster, 2)) {
                admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(delete("interval.ms"), delete("match"),
                        delete("metrics")))).all().get();
            }
            everyNodeAnswers(cluster, Map.of("interval.ms", "300000 DEFAULT_CONFIG", "match", " DEFAULT_CONFIG",
                    "metrics", " DEFAULT_CONFIG"), List.of());
        } finally {
            cluster.close();
        }
    }

    /** Each node, once it follows the image, describes the subscription so and lists these names (v1 and v0). */
    private static void everyNodeAnswers(MiniCluster cluster, Map<String, String> described, List<String> names)
            throws Exception {
        for (int node = 0; node < 3; node++) {
            try (Admin admin = admin(cluster, node)) {
                await(() -> names.equals(listedNow(admin)) && described.equals(describedNow(admin)),
                        "the subscriptions through node " + node);
                @SuppressWarnings("removal")
                Collection<?> v0 = admin.listClientMetricsResources().all().get();
                assertThat(v0).as("v0 through node " + node).hasSize(names.size());
            }
        }
    }

    private static void assertRefused(Admin admin, String name, String value, Class<? extends Exception> error,
                                      String message) {
        assertThatThrownBy(() -> admin.incrementalAlterConfigs(Map.of(SUBSCRIPTION, List.of(set(name, value))))
                .all().get()).as(name + "=" + value).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(error).cause().hasMessage(message);
    }

    private static AlterConfigOp set(String name, String value) {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    private static AlterConfigOp delete(String name) {
        return new AlterConfigOp(new ConfigEntry(name, null), AlterConfigOp.OpType.DELETE);
    }

    private static List<String> listed(Admin admin) throws Exception {
        return admin.listConfigResources(Set.of(ConfigResource.Type.CLIENT_METRICS), new ListConfigResourcesOptions())
                .all().get().stream().map(resource -> resource.name()).toList();
    }

    /** What the node lists now; null while an answer fails (a broker still catching up with the image). */
    private static List<String> listedNow(Admin admin) {
        try {
            return listed(admin);
        } catch (Exception e) {
            return null;
        }
    }

    /** Each config as "value source"; null while an answer fails. */
    private static Map<String, String> describedNow(Admin admin) {
        try {
            Map<String, String> entries = new TreeMap<>();
            admin.describeConfigs(List.of(SUBSCRIPTION)).all().get().get(SUBSCRIPTION).entries()
                    .forEach(entry -> entries.put(entry.name(), entry.value() + " " + entry.source()));
            return entries;
        } catch (Exception e) {
            return null;
        }
    }

    private static Admin admin(MiniCluster cluster, int node) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + cluster.node(node).boundPort("PLAINTEXT")));
    }
}
