package io.minibroker.it.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import io.minibroker.it.Clients;
import io.minibroker.testkit.container.MiniKafkaContainer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.Network;
import org.testcontainers.containers.startupcheck.OneShotStartupCheckStrategy;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The broker's Docker image through {@link MiniKafkaContainer}, as another project's tests would use it. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MiniKafkaContainerTest {

    @BeforeEach // per test rather than per class, so that Surefire counts each one as skipped, with the reason
    void needsDocker() {
        DockerImages.assumeDocker();
    }

    @Test
    void clientsOnTheHostReachTheBrokerThroughTheMappedPortFromTheFirstRequest() throws Exception {
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                .withBrokerConfig("num.partitions", "3")) {
            kafka.start();

            // No retries: the readiness wait must have made the very first request succeed.
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    kafka.getBootstrapServers(), AdminClientConfig.RETRIES_CONFIG, 0))) {
                Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000))
                        .nodes().get();
                assertThat(nodes).singleElement().satisfies(node ->
                        assertThat(node.host() + ":" + node.port()).isEqualTo(kafka.getBootstrapServers()));

                try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers())) {
                    for (String value : new String[] {"one", "two", "three"}) {
                        producer.send(new ProducerRecord<>("orders", 0, null, value)).get();
                    }
                }
                assertThat(Clients.readValues(kafka.getBootstrapServers(), "orders", 3))
                        .containsExactly("one", "two", "three");
                // withBrokerConfig reached the broker: the auto-created topic got num.partitions=3.
                assertThat(admin.describeTopics(java.util.List.of("orders")).allTopicNames().get()
                        .get("orders").partitions()).hasSize(3);
            }
        }
    }

    @Test
    void withSaslPlainClientsAuthenticateAndAWrongPasswordIsRefused() throws Exception {
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                .withSaslPlain("alice", "alice \"secret\"")) {
            kafka.start(); // the readiness check authenticates too

            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers(),
                    kafka.getClientSaslConfig())) {
                producer.send(new ProducerRecord<>("secured", 0, null, "one")).get();
            }
            Map<String, Object> wrong = new HashMap<>(kafka.getClientSaslConfig());
            wrong.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers());
            wrong.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required"
                    + " username=\"alice\" password=\"guess\";");
            try (Admin admin = Admin.create(wrong)) {
                assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                        .hasCauseInstanceOf(SaslAuthenticationException.class);
            }
        }
    }

    @Test
    void threeBrokersWithSaslPlainSignInToEachOtherAndReplicate() throws Exception {
        // Every listener SASL_PLAINTEXT: the nodes' registration and replication sign in as the nodes' own user.
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker()).withBrokers(3)
                .withSaslPlain("alice", "alice-secret")) {
            kafka.start();
            assertReplicatesAcrossThreeBrokers(kafka);
        }
    }

    @Test
    void threeBrokersInOneContainerReplicateAndAreReachedFromTheHost() throws Exception {
        // No network: the nodes replicate over an INTERNAL listener on the container's localhost.
        try (MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker()).withBrokers(3)) {
            kafka.start();
            assertReplicatesAcrossThreeBrokers(kafka);
        }
    }

    @Test
    void onANetworkThreeBrokersReplicateThroughTheirAliasedBrokerListener() throws Exception {
        try (Network network = Network.newNetwork();
             MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                     .withNetwork(network).withNetworkAliases("kafka").withBrokers(3)) {
            kafka.start();
            assertThat(kafka.getNetworkBootstrapServers()).isEqualTo("kafka:9093,kafka:9103,kafka:9113");
            assertReplicatesAcrossThreeBrokers(kafka);
        }
    }

    private static void assertReplicatesAcrossThreeBrokers(MiniKafkaContainer kafka) throws Exception {
        List<String> hostAddresses = List.of(kafka.getBootstrapServers().split(","));
        assertThat(hostAddresses).hasSize(3);

        Map<String, Object> adminConfig = new HashMap<>(kafka.getClientSaslConfig()); // none without SASL
        adminConfig.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers());
        adminConfig.put(AdminClientConfig.RETRIES_CONFIG, 0);
        try (Admin admin = Admin.create(adminConfig)) {
            Collection<Node> nodes = admin.describeCluster(new DescribeClusterOptions().timeoutMs(5_000))
                    .nodes().get();
            assertThat(nodes).extracting(node -> node.host() + ":" + node.port())
                    .containsExactlyInAnyOrderElementsOf(hostAddresses);

            admin.createTopics(List.of(new NewTopic("replicated", 3, (short) 3))).all().get();
            Map<String, Object> producerConfig = new HashMap<>(kafka.getClientSaslConfig());
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers(),
                    producerConfig)) {
                for (int i = 0; i < 10; i++) {
                    producer.send(new ProducerRecord<>("replicated", 0, null, "record-" + i)).get();
                }
            }
            assertThat(Clients.readValues(kafka.getBootstrapServers(), kafka.getClientSaslConfig(), "replicated", 10))
                    .hasSize(10).startsWith("record-0").endsWith("record-9");

            List<TopicPartitionInfo> partitions = admin.describeTopics(List.of("replicated")).allTopicNames()
                    .get().get("replicated").partitions();
            assertThat(partitions).hasSize(3).allSatisfy(partition -> {
                assertThat(partition.replicas()).hasSize(3);
                assertThat(partition.isr()).hasSize(3);
            });
        }
    }

    @Test
    void dataInTheVolumeOutlivesTheContainerWhichStopsCleanlyOnSigterm() throws Exception {
        DockerClient docker = DockerClientFactory.instance().client();
        String volume = "minibroker-it-" + UUID.randomUUID();
        docker.createVolumeCmd().withName(volume).exec();
        try {
            try (MiniKafkaContainer first = withVolume(new MiniKafkaContainer(DockerImages.broker()), volume)) {
                first.start();
                try (KafkaProducer<String, String> producer = Clients.producer(first.getBootstrapServers())) {
                    producer.send(new ProducerRecord<>("kept", "before-restart-1")).get();
                    producer.send(new ProducerRecord<>("kept", "before-restart-2")).get();
                }
                docker.stopContainerCmd(first.getContainerId()).withTimeout(30).exec(); // SIGTERM, then waits
                Long exitCode = docker.inspectContainerCmd(first.getContainerId()).exec().getState()
                        .getExitCodeLong();
                assertThat(exitCode).isZero();
                assertThat(first.getLogs()).contains("cleanly").contains("minibroker node 1 stopped");
            }
            try (MiniKafkaContainer second = withVolume(new MiniKafkaContainer(DockerImages.broker()), volume)) {
                second.start();
                assertThat(second.getLogs()).contains("after a clean shutdown");
                assertThat(Clients.readValues(second.getBootstrapServers(), "kept", 2))
                        .containsExactly("before-restart-1", "before-restart-2");
            }
        } finally {
            docker.removeVolumeCmd(volume).exec();
        }
    }

    @Test
    void anotherContainerOnTheNetworkReachesTheBrokerByItsAlias() {
        try (Network network = Network.newNetwork();
             MiniKafkaContainer kafka = new MiniKafkaContainer(DockerImages.broker())
                     .withNetwork(network).withNetworkAliases("kafka");
             GenericContainer<?> probe = new GenericContainer<>(DockerImages.probe())
                     .withNetwork(network)
                     .withCommand("kafka:" + MiniKafkaContainer.NETWORK_PORT, "from-the-network")
                     .withStartupCheckStrategy(new OneShotStartupCheckStrategy()
                             .withTimeout(Duration.ofSeconds(90)))) {
            kafka.start();
            assertThat(kafka.getNetworkBootstrapServers()).isEqualTo("kafka:" + MiniKafkaContainer.NETWORK_PORT);

            probe.start(); // returns once the probe has exited 0

            assertThat(probe.getLogs()).contains("probe: ok offset=0 value=from-another-container");
        }
    }

    private static MiniKafkaContainer withVolume(MiniKafkaContainer container, String volume) {
        return container.withCreateContainerCmdModifier(create -> create.getHostConfig()
                .withBinds(new Bind(volume, new Volume("/var/lib/minibroker"))));
    }
}
