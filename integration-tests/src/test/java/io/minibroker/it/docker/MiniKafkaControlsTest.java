package io.minibroker.it.docker;

import io.minibroker.broker.control.Controls;
import io.minibroker.broker.control.ErrorRule;
import io.minibroker.broker.control.LoggedRequest;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.it.Clients;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.testkit.container.MiniKafkaContainer;
import io.minibroker.testkit.container.MiniKafkaControls;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** The test controls of a broker in Docker, through {@link MiniKafkaControls}, as a Testcontainers user has them. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MiniKafkaControlsTest {

    @BeforeEach
    void needsDocker() {
        DockerImages.assumeDocker();
    }

    @Test
    void aProducerRidesThroughErrorsInjectedInTheContainerAndTheLogSeesThem() throws Exception {
        try (MiniKafkaContainer kafka = MiniKafkaControls.enable(new MiniKafkaContainer(DockerImages.broker()))) {
            kafka.start();
            Controls controls = MiniKafkaControls.of(kafka);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    kafka.getBootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("boxed", 1, (short) 1))).all().get();
            }
            controls.requestLog().start();
            controls.inject(ErrorRule.answer(RequestMatch.api(ApiKey.PRODUCE).topic("boxed"),
                    Errors.NOT_ENOUGH_REPLICAS).times(2));
            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers())) {
                assertThat(producer.send(new ProducerRecord<>("boxed", "v")).get().offset()).isZero();
            }
            LoggedRequest refused = controls.requestLog().awaitAnswer(RequestMatch.api(ApiKey.PRODUCE),
                    Errors.NOT_ENOUGH_REPLICAS, Duration.ofSeconds(10)).orElseThrow();
            assertThat(refused.facts().topics()).containsKey("boxed");
            assertThat(controls.errorRules()).isEmpty();
            controls.reset();
        }
    }

    /**
     * A three-node cluster in one container ({@code withBrokers(3)}, {@code minibroker --nodes 3}), driven over each
     * node's endpoint: the controller's node moves a leader, the leader shrinks and grows its ISR, and the
     * controller's node kills and restarts another; an idempotent acks=all producer carries on through all of it,
     * without loss or duplicates.
     */
    @Test
    void aProducerCarriesOnThroughLeaderMovesIsrChangesAndANodeKilledInAClusterContainer() throws Exception {
        String topic = "moved";
        try (MiniKafkaContainer kafka = MiniKafkaControls.enable(new MiniKafkaContainer(DockerImages.broker())
                .withBrokers(3)
                .withBrokerConfig("broker.heartbeat.interval.ms", "100")
                .withBrokerConfig("broker.session.timeout.ms", "2000")
                .withBrokerConfig("replica.fetch.wait.max.ms", "100")
                .withBrokerConfig("auto.leader.rebalance.enable", "false"));
             Admin admin = startAndConnect(kafka)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 3)
                    .configs(Map.of("min.insync.replicas", "2")))).all().get();
            Controls controllerNode = MiniKafkaControls.of(kafka, 0);
            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers(), Map.of(
                    ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20))) {
                send(producer, topic, 0, 10);

                int to = (partition(admin, topic).leader().id() + 1) % 3;
                controllerNode.moveLeader(topic, 0, to);
                awaitPartition(admin, topic, info -> info.leader() != null && info.leader().id() == to);
                send(producer, topic, 10, 20);

                int follower = (to + 1) % 3;
                assertThat(MiniKafkaControls.of(kafka, to).shrinkIsr(topic, 0, follower)).doesNotContain(follower);
                awaitPartition(admin, topic, info -> info.isr().size() == 2);
                send(producer, topic, 20, 30); // two in the ISR are min.insync.replicas
                // Back at once only if it has caught up: it may still be fetching the records acknowledged while it
                // was held out, and then rejoins when it has them.
                MiniKafkaControls.of(kafka, to).growIsr(topic, 0, follower);
                awaitPartition(admin, topic, info -> info.isr().size() == 3);

                int victim = to == 0 ? 1 : to;
                controllerNode.killNode(victim);
                send(producer, topic, 30, 40); // waits out node's fencing and the election of another leader
                assertThat(partition(admin, topic).leader().id()).isNotEqualTo(victim);
                controllerNode.restartNode(victim);
                awaitPartition(admin, topic, info -> info.isr().size() == 3);
                send(producer, topic, 40, 50);
            }
            assertThat(Clients.readValues(kafka.getBootstrapServers(), topic, 50)).containsExactlyElementsOf(
                    IntStream.range(0, 50).mapToObj(i -> "v" + i).toList());
        }
    }

    private static Admin startAndConnect(MiniKafkaContainer kafka) {
        kafka.start();
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.getBootstrapServers()));
    }

    private static void send(KafkaProducer<String, String> producer, String topic, int from, int to)
            throws Exception {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, "v" + i)).get(60, TimeUnit.SECONDS);
        }
    }

    private static TopicPartitionInfo partition(Admin admin, String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().get(0);
    }

    /** Waits for the partition's metadata to satisfy {@code condition}: an observable change, not a pause. */
    private static void awaitPartition(Admin admin, String topic, Predicate<TopicPartitionInfo> condition)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.test(partition(admin, topic))) {
            assertThat(System.nanoTime() - deadline).as("the partition's metadata to change").isNegative();
        }
    }
}
