package io.minibroker.broker.control;

import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.FirstPartition;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A MiniCluster's replication and node controls with kafka-clients 4.4.0: an ISR shrunk and grown on demand (seen in
 * Metadata and as NOT_ENOUGH_REPLICAS by acks=all producers), a follower made to lag, a transactional id's
 * coordinator moved, and nodes killed and restarted, in Java and over HTTP.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: a killed node's session runs out, but no live node's on a loaded machine.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterReplicationControlsTest {

    /** min.insync.replicas 2: one replica may be out of the ISR. */
    private static final String TOPIC = "replicated";
    /** min.insync.replicas 3: acks=all produces need every replica in the ISR. */
    private static final String STRICT = "strict";
    private static final Duration WAIT = Duration.ofSeconds(60);

    private MiniCluster cluster;
    private SessionClock.Running running;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 1_500, Map.of("replica.lag.time.max.ms", "1000",
                "group.initial.rebalance.delay.ms", "0", "auto.leader.rebalance.enable", "false",
                "transaction.state.log.num.partitions", "3", "transaction.state.log.replication.factor", "3",
                "transaction.state.log.min.isr", "1", "minibroker.controls.port", "0"));
        cluster = running.cluster();
        admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
        admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 3).configs(Map.of("min.insync.replicas", "2")),
                new NewTopic(STRICT, 1, (short) 3).configs(Map.of("min.insync.replicas", "3")))).all().get();
        await(() -> isr(TOPIC).size() == 3 && isr(STRICT).size() == 3, "the ISRs to hold all three replicas");
    }

    @AfterEach
    void stop() {
        admin.close();
        running.close();
    }

    @Test
    void aShrunkIsrShowsInMetadataAndHoldsAcksAllProducesUntilItGrows() throws Exception {
        int leader = cluster.leaderOf(STRICT, 0);
        int follower = (leader + 1) % 3;
        BrokerControls leaderControls = cluster.controls(leader);
        leaderControls.requestLog().start();
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            send(producer, STRICT, 0, 10);

            assertThat(cluster.shrinkIsr(STRICT, 0, follower)).doesNotContain(follower).hasSize(2);
            await(() -> !describedIsr(STRICT).contains(follower), "Metadata to show the smaller ISR");

            // Below min.insync.replicas: the idempotent producer is answered NOT_ENOUGH_REPLICAS and keeps retrying.
            List<Future<RecordMetadata>> held = new ArrayList<>();
            for (int i = 10; i < 20; i++) {
                held.add(producer.send(new ProducerRecord<>(STRICT, 0, null, "v" + i)));
            }
            assertThat(leaderControls.requestLog().awaitAnswer(RequestMatch.api(ApiKey.PRODUCE).topic(STRICT),
                    Errors.NOT_ENOUGH_REPLICAS, WAIT)).isPresent();
            assertThat(held).noneMatch(Future::isDone);

            assertThat(cluster.growIsr(STRICT, 0, follower)).contains(follower);
            for (Future<RecordMetadata> send : held) {
                send.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            await(() -> describedIsr(STRICT).contains(follower), "Metadata to show the ISR grown back");
        }
        assertThat(consumeAll(STRICT, 20)).containsExactlyElementsOf(values(0, 20));
        assertThatThrownBy(() -> cluster.controls(follower).shrinkIsr(STRICT, 0, leader))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("node " + leader + " does");
    }

    @Test
    void aProducerWithoutRetriesSeesNotEnoughReplicasOverHttp() throws Exception {
        int leader = cluster.leaderOf(STRICT, 0);
        int follower = (leader + 2) % 3;
        Controls remote = HttpControls.at("127.0.0.1", cluster.node(leader).controlsAddress().getPort());
        assertThat(remote.shrinkIsr(STRICT, 0, follower)).doesNotContain(follower);
        try (KafkaProducer<String, String> producer = producer(Map.of(ProducerConfig.RETRIES_CONFIG, 0,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(STRICT, 0, null, "refused")).get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(NotEnoughReplicasException.class);
            assertThat(remote.growIsr(STRICT, 0, follower)).contains(follower);
            producer.send(new ProducerRecord<>(STRICT, 0, null, "v0")).get();
        }
        HttpControls notLeader = HttpControls.at("127.0.0.1", cluster.node(follower).controlsAddress().getPort());
        assertThatThrownBy(() -> notLeader.shrinkIsr(STRICT, 0, leader))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("400");
    }

    @Test
    void aLaggingFollowerLeavesTheIsrAndComesBackWhenItResumes() throws Exception {
        int leader = cluster.leaderOf(TOPIC, 0);
        int follower = (leader + 1) % 3;
        Controls remote = HttpControls.at("127.0.0.1", cluster.node(follower).controlsAddress().getPort());
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            remote.lagFollower(TOPIC, -1);
            await(() -> !isr(TOPIC).contains(follower), "the leader to drop the lagging follower");
            send(producer, TOPIC, 0, 10); // two in the ISR still satisfy min.insync.replicas 2
            remote.resumeFollower(TOPIC, -1);
            await(() -> isr(TOPIC).contains(follower), "the follower to catch up and rejoin the ISR");
            send(producer, TOPIC, 10, 20);
        }
        assertThat(consumeAll(TOPIC, 20)).containsExactlyElementsOf(values(0, 20));
    }

    @Test
    void anAcksAllProduceWaitsForASlowedFollowerUntilTheLeaderDropsItThenItRejoinsOnceLifted() throws Exception {
        int leader = cluster.leaderOf(TOPIC, 0);
        int follower = (leader + 1) % 3;
        // A delay far above replica.lag.time.max.ms (1 s): the follower's next fetch, which would tell the leader it
        // has the record, comes only after the leader gave up on it, so the produce is acknowledged by the other two.
        cluster.controls(follower).slowFollower(TOPIC, 0, Duration.ofHours(1));
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "v0")).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertThat(isr(TOPIC)).as("acknowledged only once the slowed follower left the ISR")
                    .doesNotContain(follower).hasSize(2);
            cluster.controls(follower).slowFollower(TOPIC, 0, Duration.ZERO);
            await(() -> isr(TOPIC).contains(follower), "the follower to catch up and rejoin the ISR once lifted");
            send(producer, TOPIC, 1, 20);
        }
        assertThat(consumeAll(TOPIC, 20)).containsExactlyElementsOf(values(0, 20));
    }

    @Test
    void aSlowedFollowerOverHttpLeavesTheIsrAndResetLiftsTheDelay() throws Exception {
        int leader = cluster.leaderOf(TOPIC, 0);
        int follower = (leader + 1) % 3;
        Controls remote = HttpControls.at("127.0.0.1", cluster.node(follower).controlsAddress().getPort());
        assertThatThrownBy(() -> remote.slowFollower(TOPIC, 0, Duration.ofMillis(-1)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("400");
        remote.slowFollower(TOPIC, -1, Duration.ofHours(1));
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            send(producer, TOPIC, 0, 10); // acknowledged once the leader drops the slowed follower
            await(() -> !isr(TOPIC).contains(follower), "the leader to drop the slowed follower");
            remote.reset();
            await(() -> isr(TOPIC).contains(follower), "the follower to rejoin the ISR after /reset");
            send(producer, TOPIC, 10, 20);
        }
        assertThat(consumeAll(TOPIC, 20)).containsExactlyElementsOf(values(0, 20));
    }

    @Test
    void aTransactionalProducerCommitsOnAfterItsCoordinatorMoves() throws Exception {
        String transactionalId = "mover";
        try (KafkaProducer<String, String> producer = producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId))) {
            producer.initTransactions();
            transaction(producer, 0, 10);
            int from = coordinatorOf(transactionalId);
            int to = (from + 1) % 3;
            HttpControls controller = HttpControls.at("127.0.0.1",
                    cluster.node(MiniCluster.CONTROLLER_ID).controlsAddress().getPort());
            controller.moveTransactionCoordinator(transactionalId, to);
            await(() -> coordinatorOf(transactionalId) == to, "FindCoordinator to name node " + to);
            transaction(producer, 10, 20);
            cluster.moveTransactionCoordinator(transactionalId, from);
            transaction(producer, 20, 30);
        }
        try (KafkaConsumer<String, String> consumer = consumer(Map.of(ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed"))) {
            consumer.subscribe(List.of(TOPIC));
            assertThat(Clients.consume(consumer, 30, WAIT)).containsExactlyElementsOf(values(0, 30));
        }
    }

    @Test
    void aKilledLeaderGoesDownAndComesBackOverAnotherNodesEndpoint() throws Exception {
        cluster.moveLeader(TOPIC, 0, 1);
        Controls controllerNode = HttpControls.at("127.0.0.1",
                cluster.node(MiniCluster.CONTROLLER_ID).controlsAddress().getPort());
        try (KafkaProducer<String, String> producer = producer(Map.of())) {
            send(producer, TOPIC, 0, 10);
            controllerNode.killNode(1);
            assertThatThrownBy(() -> cluster.node(1)).isInstanceOf(IllegalStateException.class);
            send(producer, TOPIC, 10, 20); // waits out the fencing of node 1 and a new leader's election
            assertThat(cluster.leaderOf(TOPIC, 0)).isNotEqualTo(1);

            controllerNode.restartNode(1);
            await(() -> cluster.controller().membership().liveBrokers().size() == 3, "node 1 back");
            await(() -> isr(TOPIC).contains(1), "node 1 back in the ISR");
            send(producer, TOPIC, 20, 30);
        }
        assertThat(consumeAll(TOPIC, 30)).containsExactlyElementsOf(values(0, 30));
        assertThatThrownBy(() -> controllerNode.stopNode(MiniCluster.CONTROLLER_ID))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("another node");
        cluster.controls(2).stopNode(1);
        await(() -> cluster.controller().membership().liveBrokers().size() == 2, "node 1 stopped");
        cluster.controls(2).restartNode(1);
        assertThat(cluster.node(1)).isNotNull();
    }

    /**
     * The ISR as the controller has it. A client's describeTopics goes to any node, whose image may be a change
     * behind: one from before a shrink still lists the dropped replica, so a wait for it to rejoin would pass early.
     */
    private List<Integer> isr(String topic) {
        return new FirstPartition(cluster, topic).isr();
    }

    /** The ISR as a client's Metadata shows it: describeTopics, answered by whichever node the Admin picks. */
    private List<Integer> describedIsr(String topic) {
        try {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic);
            return description.partitions().get(0).isr().stream().map(Node::id).toList();
        } catch (InterruptedException | ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    private int coordinatorOf(String transactionalId) {
        try {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get()
                    .coordinatorId();
        } catch (InterruptedException | ExecutionException e) {
            return -1;
        }
    }

    private KafkaProducer<String, String> producer(Map<String, Object> extra) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 20, ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000));
        config.putAll(extra);
        return new KafkaProducer<>(config, new StringSerializer(), new StringSerializer());
    }

    private KafkaConsumer<String, String> consumer(Map<String, Object> extra) {
        Map<String, Object> config = new java.util.HashMap<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "check-" + System.nanoTime(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false));
        config.putAll(extra);
        return new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer());
    }

    private List<String> consumeAll(String topic, int count) {
        try (KafkaConsumer<String, String> consumer = consumer(Map.of())) {
            consumer.subscribe(List.of(topic));
            return Clients.consume(consumer, count, WAIT);
        }
    }

    private static void send(KafkaProducer<String, String> producer, String topic, int from, int to)
            throws Exception {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, 0, null, "v" + i)).get();
        }
    }

    private static void transaction(KafkaProducer<String, String> producer, int from, int to) {
        producer.beginTransaction();
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i));
        }
        producer.commitTransaction();
    }

    private static List<String> values(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> "v" + i).toList();
    }
}
