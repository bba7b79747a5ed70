package io.minibroker.broker.transaction;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
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
import org.junit.jupiter.api.Test;
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
 * sees the committed records and none of the aborted.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterTransactionsTest {

    private static final String TOPIC = "txn-orders";
    private static final int PARTITIONS = 3;

    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "broker.session.timeout.ms", "1500", "replica.fetch.wait.max.ms", "100",
                "replica.lag.time.max.ms", "3000", "min.insync.replicas", "2",
                "transaction.state.log.num.partitions", "3", "transaction.state.log.replication.factor", "3",
                "offsets.topic.num.partitions", "3", "offsets.topic.replication.factor", "3"));
        await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()))) {
            // One partition led by each node, so that every commit needs markers on other nodes.
            admin.createTopics(List.of(new NewTopic(TOPIC, Map.of(0, List.of(0, 1, 2), 1, List.of(1, 2, 0),
                    2, List.of(2, 0, 1))))).all().get();
        }
    }

    @AfterEach
    void close() {
        cluster.close();
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
