package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.tools.AclCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * kafka-acls.sh (kafka-tools 4.3.1's AclCommand, in a child JVM as the script runs it) against a broker with ACLs on
 * a SASL PLAIN listener, as the super user through --command-config: --add grants a user WRITE on a prefixed topic
 * pattern (the --producer convenience), --list shows it, and the user's producer works; --consumer lets the user
 * read the topic in a group; --remove takes the producer's rights away and the producer is refused again.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KafkaAclsCommandTest {

    private static final String JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required"
            + " username=\"admin\" password=\"admin-secret\" user_admin=\"admin-secret\""
            + " user_alice=\"alice-secret\";";

    @TempDir
    Path dir;

    @Test
    void addListAndRemoveAclsAgainstTheBroker() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of(
                "listeners", "SASL_PLAINTEXT://localhost:0",
                "sasl.enabled.mechanisms", "PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config", JAAS,
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users", "User:admin"))) {
            String bootstrap = broker.bootstrapServers();
            Path adminConfig = ordersTopicAndAdminConfig(bootstrap, 1);

            assertThatThrownBy(() -> produce(bootstrap)).hasCauseInstanceOf(TopicAuthorizationException.class);

            acls(bootstrap, adminConfig, "--add", "--allow-principal", "User:alice", "--producer",
                    "--topic", "orders-", "--resource-pattern-type", "prefixed");
            String listed = acls(bootstrap, adminConfig, "--list", "--topic", "orders-",
                    "--resource-pattern-type", "prefixed");
            assertThat(listed).contains("ResourcePattern(resourceType=TOPIC, name=orders-, patternType=PREFIXED)")
                    .contains("(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW)")
                    .contains("(principal=User:alice, host=*, operation=CREATE, permissionType=ALLOW)");
            produce(bootstrap);
            acls(bootstrap, adminConfig, "--add", "--allow-principal", "User:alice", "--consumer",
                    "--topic", "orders-eu", "--group", "billing");
            assertThat(consume(bootstrap)).containsExactly("v");

            acls(bootstrap, adminConfig, "--remove", "--force", "--allow-principal", "User:alice", "--producer",
                    "--topic", "orders-", "--resource-pattern-type", "prefixed");
            assertThat(acls(bootstrap, adminConfig, "--list", "--topic", "orders-", "--resource-pattern-type",
                    "prefixed")).doesNotContain("User:alice");
            assertThatThrownBy(() -> produce(bootstrap))
                    .as("no WRITE on any topic left: not even an idempotent producer id")
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
    }

    /**
     * The same commands against a three-node cluster, each through another node than the last: an ACL added
     * through node 2 (forwarded to the controller) is listed by node 1 and lets alice produce to a partition
     * whose replicas are on all three; removed through node 1, node 2 stops listing it and alice is refused.
     * Brokers sign in to the controller and to each other as admin, the super user.
     */
    @Test
    void addListAndRemoveAclsThroughDifferentNodesOfACluster() throws Exception {
        Map<String, String> settings = new HashMap<>(Map.of(
                "listener.security.protocol.map", "PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
                "sasl.enabled.mechanisms", "PLAIN",
                "sasl.mechanism.inter.broker.protocol", "PLAIN",
                "sasl.mechanism.controller.protocol", "PLAIN",
                "listener.name.plaintext.plain.sasl.jaas.config", JAAS,
                "listener.name.controller.plain.sasl.jaas.config", JAAS,
                "authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
                "super.users", "User:admin",
                "broker.heartbeat.interval.ms", "100"));
        try (MiniCluster cluster = MiniCluster.start(3, settings)) {
            Eventually.await(() -> cluster.controller().membership().liveBrokers().size() == 3,
                    "three brokers registered");
            String bootstrap = cluster.bootstrapServers();
            Path adminConfig = ordersTopicAndAdminConfig(bootstrap, 3);
            assertThatThrownBy(() -> produce(bootstrap)).hasCauseInstanceOf(TopicAuthorizationException.class);

            acls(nodeAddress(cluster, 2), adminConfig, "--add", "--allow-principal", "User:alice", "--producer",
                    "--topic", "orders-", "--resource-pattern-type", "prefixed");
            Eventually.await(() -> listedByNode(cluster, 1, adminConfig).contains("User:alice"),
                    "node 1 lists the ACL added through node 2");
            Eventually.await(() -> produces(bootstrap), "alice produces once the leader has the ACL");

            acls(nodeAddress(cluster, 1), adminConfig, "--remove", "--force", "--allow-principal", "User:alice",
                    "--producer", "--topic", "orders-", "--resource-pattern-type", "prefixed");
            Eventually.await(() -> !listedByNode(cluster, 2, adminConfig).contains("User:alice"),
                    "node 2 no longer lists the ACL removed through node 1");
            Eventually.await(() -> !produces(bootstrap), "alice refused once the leader dropped the ACL");
        }
    }

    /** Creates orders-eu with this replication factor as admin, and writes admin's --command-config file. */
    private Path ordersTopicAndAdminConfig(String bootstrap, int replicationFactor) throws Exception {
        try (Admin admin = Admin.create(client(bootstrap, "admin"))) {
            admin.createTopics(List.of(new NewTopic("orders-eu", 1, (short) replicationFactor))).all().get();
        }
        Path adminConfig = dir.resolve("admin.properties");
        Files.writeString(adminConfig, "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
                + "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"admin\" password=\"admin-secret\";\n");
        return adminConfig;
    }

    private static String nodeAddress(MiniCluster cluster, int node) {
        return "localhost:" + cluster.node(node).boundPort("PLAINTEXT");
    }

    private static String listedByNode(MiniCluster cluster, int node, Path adminConfig) {
        try {
            return acls(nodeAddress(cluster, node), adminConfig, "--list", "--topic", "orders-",
                    "--resource-pattern-type", "prefixed");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean produces(String bootstrap) {
        try {
            produce(bootstrap);
            return true;
        } catch (Exception refused) {
            return false;
        }
    }

    private static String acls(String bootstrap, Path commandConfig, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of("--bootstrap-server", bootstrap, "--command-config",
                commandConfig.toString()));
        line.addAll(Arrays.asList(args));
        return KafkaTool.run(AclCommand.class, line.toArray(String[]::new));
    }

    /** One record to orders-eu as alice, with an idempotent producer (WRITE on the topic is enough for its id). */
    private static void produce(String bootstrap) throws Exception {
        Map<String, Object> config = client(bootstrap, "alice");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>("orders-eu", "k", "v")).get();
        }
    }

    /** orders-eu's records as alice, in the group billing, committing what it read. */
    private static List<String> consume(String bootstrap) {
        Map<String, Object> config = client(bootstrap, "alice");
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "billing");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("orders-eu"));
            Eventually.await(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(r -> values.add(r.value()));
                return !values.isEmpty();
            }, "alice reads orders-eu");
            consumer.commitSync();
        }
        return values;
    }

    private static Map<String, Object> client(String bootstrap, String user) {
        Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, "org.apache.kafka.common.security.plain.PlainLoginModule required"
                + " username=\"" + user + "\" password=\"" + user + "-secret\";");
        return config;
    }
}
