package io.minibroker.broker.control;

import io.minibroker.broker.cluster.ClusterMetadata;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.group.GroupCoordinator;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A MiniCluster's topology controls, with kafka-clients 4.4.0: leadership and a group's coordinator moved. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterTopologyTest {

    private static final String TOPIC = "moving";
    private static final int OFFSETS_PARTITIONS = 3;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "replica.fetch.wait.max.ms", "100", "group.initial.rebalance.delay.ms", "0",
                "offsets.topic.num.partitions", Integer.toString(OFFSETS_PARTITIONS),
                "offsets.topic.replication.factor", "3", "auto.leader.rebalance.enable", "false",
                "minibroker.controls.port", "0"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3))).all().get();
        }
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void anIdempotentProducerFollowsAMovedLeaderWithoutLossOrDuplicates() throws Exception {
        try (KafkaProducer<String, String> producer = producer()) {
            send(producer, 0, 50);
            int from = leaderOf(TOPIC, 0);
            int to = (from + 1) % 3;
            cluster.moveLeader(TOPIC, 0, to);
            assertThat(leaderOf(TOPIC, 0)).isEqualTo(to);
            send(producer, 50, 100);
        }
        try (KafkaConsumer<String, String> consumer = consumer("check")) {
            consumer.subscribe(List.of(TOPIC));
            assertThat(Clients.consume(consumer, 100, WAIT)).containsExactlyElementsOf(
                    IntStream.range(0, 100).mapToObj(i -> "v" + i).toList());
        }
        assertThatThrownBy(() -> cluster.moveLeader(TOPIC, 7, 0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aConsumerGroupSurvivesItsCoordinatorMoving() throws Exception {
        String group = "movers";
        try (KafkaProducer<String, String> producer = producer();
             KafkaConsumer<String, String> consumer = consumer(group)) {
            send(producer, 0, 10);
            consumer.subscribe(List.of(TOPIC));
            assertThat(Clients.consume(consumer, 10, WAIT)).hasSize(10);
            consumer.commitSync();
            int offsetsPartition = GroupCoordinator.offsetsPartitionFor(group, OFFSETS_PARTITIONS);
            int to = (leaderOf(InternalTopics.CONSUMER_OFFSETS, offsetsPartition) + 1) % 3;
            BrokerControls newCoordinator = cluster.controls(to);
            newCoordinator.requestLog().start();
            cluster.moveGroupCoordinator(group, to);
            assertThat(leaderOf(InternalTopics.CONSUMER_OFFSETS, offsetsPartition)).isEqualTo(to);

            send(producer, 10, 20);
            assertThat(Clients.consume(consumer, 10, WAIT)).containsExactlyElementsOf(
                    IntStream.range(10, 20).mapToObj(i -> "v" + i).toList());
            consumer.commitSync();
            LoggedRequest commit = newCoordinator.requestLog().await(logged ->
                    RequestMatch.api(ApiKey.OFFSET_COMMIT).group(group).matches(logged.facts())
                            && logged.answered() && logged.errors().isEmpty(), WAIT).orElseThrow();
            assertThat(commit.facts().topics()).containsKey(TOPIC);
        }
    }

    @Test
    void leadersAndCoordinatorsMoveOverTheControllerNodesEndpoint() throws Exception {
        int to = (leaderOf(TOPIC, 0) + 1) % 3;
        assertThat(post(MiniCluster.CONTROLLER_ID, "/leaders/move",
                "{\"topic\": \"" + TOPIC + "\", \"partition\": 0, \"node\": " + to + "}").statusCode()).isEqualTo(200);
        assertThat(leaderOf(TOPIC, 0)).isEqualTo(to);
        HttpResponse<String> notController = post(1, "/leaders/move",
                "{\"topic\": \"" + TOPIC + "\", \"partition\": 0, \"node\": 0}");
        assertThat(notController.statusCode()).isEqualTo(400);
        assertThat(notController.body()).contains("controller");

        try (KafkaConsumer<String, String> consumer = consumer("web-group")) {
            consumer.subscribe(List.of(TOPIC));
            // Its FindCoordinator creates __consumer_offsets.
            await(() -> {
                consumer.poll(Duration.ofMillis(50));
                return cluster.controller().topicAssignments().partitionCount(InternalTopics.CONSUMER_OFFSETS) > 0;
            }, "__consumer_offsets to be created");
        }
        int offsetsPartition = GroupCoordinator.offsetsPartitionFor("web-group", OFFSETS_PARTITIONS);
        int coordinator = (leaderOf(InternalTopics.CONSUMER_OFFSETS, offsetsPartition) + 1) % 3;
        assertThat(post(MiniCluster.CONTROLLER_ID, "/coordinators/move",
                "{\"group\": \"web-group\", \"node\": " + coordinator + "}").statusCode()).isEqualTo(200);
        assertThat(leaderOf(InternalTopics.CONSUMER_OFFSETS, offsetsPartition)).isEqualTo(coordinator);
    }

    private HttpResponse<String> post(int node, String path, String json) throws Exception {
        URI endpoint = URI.create("http://127.0.0.1:" + cluster.node(node).controlsAddress().getPort() + path);
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(endpoint)
                .POST(HttpRequest.BodyPublishers.ofString(json)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private int leaderOf(String topic, int partition) {
        ClusterMetadata.TopicImage image = cluster.controller().topicAssignments().image().topic(topic).orElseThrow();
        return image.partitions().get(partition).leader();
    }

    private KafkaProducer<String, String> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20), new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer(String group) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer());
    }

    private static void send(KafkaProducer<String, String> producer, int from, int to) throws Exception {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)).get();
        }
    }
}
