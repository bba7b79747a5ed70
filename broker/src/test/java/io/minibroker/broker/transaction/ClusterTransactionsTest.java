package io.minibroker.broker.transaction;

import io.minibroker.broker.control.LoggedRequest;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A transactional producer (kafka-clients) against three nodes, {@code __transaction_state} and the data topic
 * replicated three times with {@code min.insync.replicas} 2: the coordinator is the leader of the id's state
 * partition, its markers reach the partitions other nodes lead over WriteTxnMarkers, and a read_committed consumer
 * sees the committed records and none of the aborted. Under transaction version 2 (the default) the leaders of the
 * data partitions add them to the transaction at its coordinator, on another node for most of them.
 *
 * <p>The cluster runs on a manual clock that moves on by itself ({@link SessionClock#startRunning}), never past a
 * live node's last heartbeat: a killed coordinator's session runs out, but no live node's on a loaded machine.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterTransactionsTest {

    private static final String TOPIC = "txn-orders";
    private static final int PARTITIONS = 3;
    private static final String TRANSACTION_VERSION_1 = "transaction-version-1";

    private MiniCluster cluster;
    private SessionClock.Running running;

    @BeforeEach
    void start(TestInfo test) throws Exception {
        Map<String, String> overrides = new HashMap<>(Map.of("replica.lag.time.max.ms", "3000",
                "min.insync.replicas", "2",
                "transaction.state.log.num.partitions", "3", "transaction.state.log.replication.factor", "3",
                "offsets.topic.num.partitions", "3", "offsets.topic.replication.factor", "3"));
        if (test.getTags().contains(TRANSACTION_VERSION_1)) {
            overrides.put("minibroker.transaction.version", "1");
        }
        running = SessionClock.startRunning(3, 1_500, overrides);
        cluster = running.cluster();
        try (Admin admin = admin()) {
            // One partition led by each node, so that every commit needs markers on other nodes.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1, 2), 1, List.of(1, 2, 0),
                    2, List.of(2, 0, 1))))).all().get();
        }
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void committedRecordsOnEveryNodeAreReadAndAbortedOnesAreNot() {
        try (KafkaProducer<String, String> producer = producer("cluster-tx")) {
            producer.initTransactions();
            producer.beginTransaction();
            sendToEveryPartition(producer, "aborted");
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            sendToEveryPartition(producer, "committed");
            producer.commitTransaction();
        }
        assertThat(readCommitted(PARTITIONS)).containsExactlyInAnyOrder("committed-0", "committed-1", "committed-2");
    }

    @Test
    void aSecondInstanceOfTheIdFencesTheFirst() {
        try (KafkaProducer<String, String> first = producer("fenced-tx")) {
            first.initTransactions();
            first.beginTransaction();
            sendToEveryPartition(first, "zombie");
            first.flush();
            try (KafkaProducer<String, String> second = producer("fenced-tx")) {
                second.initTransactions(); // aborts the first's transaction
                assertThatThrownBy(first::commitTransaction).isInstanceOf(ProducerFencedException.class);
                second.beginTransaction();
                sendToEveryPartition(second, "second");
                second.commitTransaction();
            }
        }
        assertThat(readCommitted(PARTITIONS)).containsExactlyInAnyOrder("second-0", "second-1", "second-2");
    }

    @Test
    void aTransactionOutlivesItsCoordinatorsNodeAndTheNextOneCommits() throws Exception {
        String id = idCoordinatedAwayFromTheController();
        try (KafkaProducer<String, String> producer = producer(id)) {
            producer.initTransactions();
            producer.beginTransaction();
            sendToEveryPartition(producer, "before-kill");
            producer.flush();
            int coordinator = coordinatorOf(id);
            assertThat(coordinator).isNotEqualTo(MiniCluster.CONTROLLER_ID);
            cluster.kill(coordinator); // its partition of __transaction_state and one data partition move
            producer.commitTransaction(); // the producer finds the new coordinator, which loaded the Ongoing state
            producer.beginTransaction();
            sendToEveryPartition(producer, "after-kill");
            producer.commitTransaction();
        }
        assertThat(readCommitted(2 * PARTITIONS)).containsExactlyInAnyOrder("before-kill-0", "before-kill-1",
                "before-kill-2", "after-kill-0", "after-kill-1", "after-kill-2");
    }

    @Test
    void anOpenTransactionOfAKilledCoordinatorIsAbortedByTheNextInstance() throws Exception {
        String id = idCoordinatedAwayFromTheController();
        try (KafkaProducer<String, String> zombie = producer(id)) {
            zombie.initTransactions();
            zombie.beginTransaction();
            sendToEveryPartition(zombie, "zombie");
            zombie.flush();
            cluster.kill(coordinatorOf(id));
            try (KafkaProducer<String, String> next = producer(id)) {
                next.initTransactions(); // at the new coordinator: aborts the zombie's transaction
                next.beginTransaction();
                sendToEveryPartition(next, "next");
                next.commitTransaction();
            }
        }
        assertThat(readCommitted(PARTITIONS)).containsExactlyInAnyOrder("next-0", "next-1", "next-2");
    }

    /**
     * Transaction version 2: the client sends no AddOffsetsToTxn; TxnOffsetCommit v5 at the group's coordinator adds
     * its offsets partition at the transaction's coordinator, another node.
     */
    @Test
    void offsetsSentToTheTransactionCommitWithItAtTheGroupsCoordinator() throws Exception {
        commitOffsetsThroughATransaction();
    }

    /** Transaction version 1: the client adds the group's offsets partition itself with AddOffsetsToTxn. */
    @Test
    @Tag(TRANSACTION_VERSION_1)
    void offsetsSentToTheTransactionCommitWithItUnderTransactionVersion1() throws Exception {
        commitOffsetsThroughATransaction();
    }

    private void commitOffsetsThroughATransaction() throws Exception {
        String id = idCoordinatedAwayFromTheController();
        String group = "txn-group";
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(new TopicPartition(TOPIC, 0),
                new OffsetAndMetadata(42));
        try (KafkaProducer<String, String> producer = producer(id)) {
            producer.initTransactions();
            producer.beginTransaction();
            sendToEveryPartition(producer, "with-offsets");
            producer.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata(group));
            producer.commitTransaction();
        }
        try (Admin admin = admin()) {
            await(() -> {
                try {
                    return offsets.equals(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata()
                            .get());
                } catch (Exception e) {
                    return false;
                }
            }, "the group's committed offsets");
            int groupCoordinator = admin.describeConsumerGroups(List.of(group)).all().get().get(group)
                    .coordinator().id();
            assertThat(groupCoordinator).as("the offsets are another node's than the transaction's")
                    .isNotEqualTo(coordinatorOf(id));
        }
    }

    /**
     * A transaction's markers for several partitions led by one other node go there as one WriteTxnMarkers request
     * naming them all, as Kafka's TransactionMarkerChannelManager sends them: not one request per partition.
     */
    @Test
    void markersForSeveralPartitionsOfOneNodeGoInOneRequest() throws Exception {
        String id = idCoordinatedAwayFromTheController();
        try (Admin admin = admin()) {
            // Its coordinator (not yet asked: the id has no state) leads its partition of the state topic.
            int coordinator = leaderOf(admin, TransactionStateTopic.NAME, TransactionCoordinator.partitionFor(id, 3));
            int leader = coordinator == 1 ? 2 : 1; // the coordinator is node 1 or 2, never the controller's node 0
            List<Integer> replicas = List.of(leader, coordinator, MiniCluster.CONTROLLER_ID);
            admin.createTopics(List.of(new NewTopic("wide", Map.of(0, replicas, 1, replicas, 2, replicas))))
                    .all().get();
            markersThroughOneRequest(id, leader);
        }
    }

    /**
     * Transactions ending while a WriteTxnMarkers to a leader is in flight share the next request, as Kafka's
     * TransactionMarkerChannelManager sends them: the leader's answers held (hung) while the first transaction's
     * markers are out, two more commit; their markers go in one request once it answers. Three transactions, two
     * requests.
     */
    @Test
    void markersOfTransactionsEndingTogetherShareOneRequest() throws Exception {
        String first = idCoordinatedAwayFromTheController();
        int statePartition = TransactionCoordinator.partitionFor(first, 3);
        List<String> ids = new ArrayList<>(List.of(first));
        for (int i = 0; ids.size() < 3; i++) {
            if (!ids.contains("tx-" + i) && TransactionCoordinator.partitionFor("tx-" + i, 3) == statePartition) {
                ids.add("tx-" + i); // coordinated where the first is
            }
        }
        int leader;
        try (Admin admin = admin()) {
            int coordinator = leaderOf(admin, TransactionStateTopic.NAME, statePartition);
            leader = coordinator == 1 ? 2 : 1; // the coordinator is node 1 or 2, never the controller's node 0
            // One replica: a marker counts once appended, so the hung leader's answer is all that holds it.
            admin.createTopics(List.of(new NewTopic("together", Map.of(0, List.of(leader)))
                    .configs(Map.of("min.insync.replicas", "1")))).all().get();
        }
        List<KafkaProducer<String, String>> producers = new ArrayList<>();
        try {
            for (String id : ids) {
                KafkaProducer<String, String> producer = producer(id);
                producers.add(producer);
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("together", 0, null, id)).get();
            }
            cluster.controls(leader).requestLog().start();
            cluster.controls(leader).hang();
            producers.get(0).commitTransaction(); // answered by the coordinator: its markers are out, unanswered
            cluster.controls(leader).requestLog().await(RequestMatch.api(ApiKey.WRITE_TXN_MARKERS),
                    Duration.ofSeconds(30));
            producers.get(1).commitTransaction(); // each queued before its EndTxn is answered
            producers.get(2).commitTransaction();
            cluster.controls(leader).resume();
            for (String id : ids) {
                await(() -> completed(id), "the markers of " + id);
            }
        } finally {
            producers.forEach(producer -> producer.close(Duration.ZERO));
        }
        List<LoggedRequest> markers = cluster.controls(leader).requestLog()
                .find(RequestMatch.api(ApiKey.WRITE_TXN_MARKERS));
        assertThat(markers).as("the first transaction's request, then one for the two that ended meanwhile")
                .hasSize(2);
        assertThat(markers).allSatisfy(request -> assertThat(request.errors()).isEmpty());
    }

    private void markersThroughOneRequest(String id, int leader) {
        cluster.controls(leader).requestLog().start();
        try (KafkaProducer<String, String> producer = producer(id)) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int partition = 0; partition < 3; partition++) {
                producer.send(new ProducerRecord<>("wide", partition, null, "v" + partition));
            }
            producer.commitTransaction(); // answered once PrepareCommit is written: the markers follow
        }
        await(() -> completed(id), "the transaction's markers written");
        // The request log names no topics of a WriteTxnMarkers; the leader gets markers of this transaction only.
        List<LoggedRequest> markers = cluster.controls(leader).requestLog()
                .find(RequestMatch.api(ApiKey.WRITE_TXN_MARKERS));
        assertThat(markers).as("WriteTxnMarkers requests at the leader of the three partitions").hasSize(1);
        assertThat(markers.get(0).errors()).as("errors in its answer").isEmpty();
    }

    /**
     * A transactional id whose coordinator is neither the controller's node (which the test keeps) nor the group
     * {@code txn-group}'s coordinator, once {@code __transaction_state} exists.
     */
    private String idCoordinatedAwayFromTheController() throws Exception {
        try (KafkaProducer<String, String> creator = producer("creates-the-state-topic")) {
            creator.initTransactions();
        }
        try (Admin admin = admin()) {
            admin.listConsumerGroupOffsets("txn-group").partitionsToOffsetAndMetadata().get(); // creates the topic
            int groupCoordinator = leaderOf(admin, "__consumer_offsets",
                    TransactionCoordinator.partitionFor("txn-group", 3));
            for (int i = 0; ; i++) {
                String id = "tx-" + i;
                int leader = leaderOf(admin, TransactionStateTopic.NAME, TransactionCoordinator.partitionFor(id, 3));
                if (leader != MiniCluster.CONTROLLER_ID && leader != groupCoordinator) {
                    return id;
                }
            }
        }
    }

    private boolean completed(String transactionalId) {
        try (Admin admin = admin()) {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get().state()
                    == TransactionState.COMPLETE_COMMIT;
        } catch (Exception e) {
            return false; // asked again
        }
    }

    private static int leaderOf(Admin admin, String topic, int partition) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get().get(topic).partitions().get(partition)
                .leader().id();
    }

    private int coordinatorOf(String transactionalId) throws Exception {
        try (Admin admin = admin()) {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get()
                    .coordinatorId();
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()));
    }

    private static void sendToEveryPartition(KafkaProducer<String, String> producer, String prefix) {
        for (int partition = 0; partition < PARTITIONS; partition++) {
            producer.send(new ProducerRecord<>(TOPIC, partition, null, prefix + "-" + partition));
        }
    }

    /** What a read_committed consumer reads of the topic up to its last stable offsets, once it has {@code count}. */
    private List<String> readCommitted(int count) {
        List<String> values = new ArrayList<>();
        Map<String, Object> config = new HashMap<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"));
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new StringDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (int partition = 0; partition < PARTITIONS; partition++) {
                partitions.add(new TopicPartition(TOPIC, partition));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            await(() -> {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
                return values.size() >= count
                        && partitions.stream().allMatch(p -> consumer.position(p) == consumer.endOffsets(List.of(p))
                        .get(p));
            }, count + " committed records");
        }
        return values;
    }

    private KafkaProducer<String, String> producer(String transactionalId) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "60000", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "60000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000"), new StringSerializer(), new StringSerializer());
    }

    private String bootstrap() {
        return "localhost:" + cluster.controller().boundPort("PLAINTEXT");
    }
}
