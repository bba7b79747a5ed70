package io.minibroker.broker.cluster;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.embedded.PickedPort;
import io.minibroker.broker.server.MetadataRoundTrip;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two listeners per node: CLIENT advertised at an address nobody can reach, BROKER at the real one and named by
 * inter.broker.listener.name. Metadata answers each listener with its own endpoints, and replication works, so
 * followers fetch from the leader's BROKER endpoint and never from the address clients are given.
 */
class InterBrokerListenerTest {

    private final List<EmbeddedBroker> nodes = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        PickedPort.start(this::startNodes);
        await(() -> advertised(2, "BROKER").size() == 3, "node 2 sees three brokers");
    }

    /**
     * The three nodes, node 0 (the controller) first: it alone binds {@code controllerPort}, which every node's
     * controller.quorum.voters names, so a port taken since it was picked fails node 0 with nothing started yet.
     */
    private List<EmbeddedBroker> startNodes(int controllerPort) throws IOException, InterruptedException {
        for (int id = 0; id < 3; id++) {
            Map<String, String> properties = new HashMap<>();
            properties.put("node.id", Integer.toString(id));
            properties.put("controller.quorum.voters", "0@localhost:" + controllerPort);
            properties.put("controller.listener.names", "CONTROLLER");
            properties.put("process.roles", id == 0 ? "broker,controller" : "broker");
            properties.put("listeners", "CLIENT://localhost:0,BROKER://localhost:0"
                    + (id == 0 ? ",CONTROLLER://localhost:" + controllerPort : ""));
            properties.put("advertised.listeners", "CLIENT://client-" + id + ".invalid:" + (19092 + id)
                    + ",BROKER://localhost:0");
            properties.put("inter.broker.listener.name", "BROKER");
            properties.put("broker.heartbeat.interval.ms", "100");
            properties.put("replica.fetch.wait.max.ms", "50");
            Path dir = Files.createTempDirectory("inter-broker-" + id + "-");
            nodes.add(EmbeddedBroker.start(dir, properties));
        }
        return nodes;
    }

    @AfterEach
    void close() {
        for (int id = nodes.size() - 1; id >= 0; id--) {
            nodes.get(id).close();
        }
    }

    @Test
    void metadataAnswersEachListenerWithItsOwnEndpoints() {
        for (int node = 0; node < 3; node++) {
            int id = node;
            await(() -> advertised(id, "CLIENT").size() == 3, "node " + id + " lists three brokers");
            assertThat(advertised(id, "CLIENT"))
                    .containsExactlyInAnyOrder("client-0.invalid:19092", "client-1.invalid:19093",
                            "client-2.invalid:19094");
            assertThat(advertised(id, "BROKER")).containsExactlyInAnyOrder(
                    "localhost:" + port(0, "BROKER"), "localhost:" + port(1, "BROKER"),
                    "localhost:" + port(2, "BROKER"));
        }
    }

    @Test
    void followersFetchFromTheLeadersInterBrokerEndpoint() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + port(1, "BROKER")))) {
            admin.createTopics(List.of(new NewTopic("replicated", 3, (short) 3))).all().get();
            await(() -> partitions(admin).stream().allMatch(p -> p.leader() != null), "leaders elected");
        }
        // acks=all with an ISR of 3: each write is acknowledged only once both followers have fetched it,
        // which they can only do at the leaders' BROKER endpoints.
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + port(2, "BROKER"),
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 20_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000),
                new StringSerializer(), new StringSerializer())) {
            for (int partition = 0; partition < 3; partition++) {
                producer.send(new ProducerRecord<>("replicated", partition, null, "value-" + partition)).get();
            }
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + port(0, "BROKER")))) {
            assertThat(partitions(admin)).allSatisfy(p -> assertThat(p.isr()).hasSize(3));
        }
    }

    private static List<TopicPartitionInfo> partitions(Admin admin) {
        try {
            return admin.describeTopics(List.of("replicated")).allTopicNames().get().get("replicated").partitions();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private int port(int id, String listener) {
        return nodes.get(id).broker().boundPort(listener);
    }

    private List<String> advertised(int id, String listener) {
        try {
            return MetadataRoundTrip.advertisedBrokers("localhost", port(id, listener));
        } catch (IOException e) {
            return List.of();
        }
    }
}
