package io.minibroker.broker.transaction;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * kafka-clients 4.4.0 transactional producers against one broker: the coordinator's side of transactions, on
 * both client paths (transaction version 2, the default, and 1, which the broker can be set to advertise).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TransactionalProducerTest {

    private static final String TOPIC = "payments";

    @TempDir
    Path logDir;
    private Broker broker;
    private final List<KafkaProducer<String, String>> clients = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (KafkaProducer<String, String> client : clients) {
            client.close(Duration.ofSeconds(5));
        }
        if (broker != null) {
            broker.close();
        }
    }

    private void start(Map<String, String> overrides, ManualClock clock) throws Exception {
        broker = clock == null ? TestBrokers.start(logDir, overrides) : TestBrokers.start(logDir, overrides, clock);
        try (Admin admin = TestBrokers.admin(broker)) {
            if (!admin.listTopics().names().get().contains(TOPIC)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
            }
        }
    }

    @Test
    void committedAndAbortedTransactionsUnderTransactionVersion2() throws Exception {
        start(Map.of(), null);
        KafkaProducer<String, String> producer = producer("tx-v2", Map.of());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(TOPIC, 0, "k", "committed")).get();
        producer.commitTransaction();
        TransactionDescription committed = describe("tx-v2");
        assertThat(committed.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(committed.topicPartitions()).isEmpty();
        // TV2: the epoch moved on at the EndTxn (initTransactions gave 0).
        assertThat(committed.producerEpoch()).isEqualTo(1);

        producer.beginTransaction();
        producer.send(new ProducerRecord<>(TOPIC, 1, "k", "aborted")).get();
        TransactionDescription open = describe("tx-v2");
        assertThat(open.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(open.topicPartitions()).containsExactly(new TopicPartition(TOPIC, 1));
        producer.abortTransaction();
        assertThat(describe("tx-v2").state()).isEqualTo(TransactionState.COMPLETE_ABORT);
        assertThat(describe("tx-v2").producerEpoch()).isEqualTo(2);

        // Both transactions' records and their markers are in the logs: a read_uncommitted consumer gets the
        // records, the markers being control batches it skips.
        assertThat(readAll(Map.of(new TopicPartition(TOPIC, 0), 2L, new TopicPartition(TOPIC, 1), 2L)))
                .containsExactlyInAnyOrder("committed", "aborted");
    }

    @Test
    void transactionVersion1ClientsAddTheirPartitionsThemselves() throws Exception {
        start(Map.of("minibroker.transaction.version", "1"), null);
        KafkaProducer<String, String> producer = producer("tx-v1", Map.of());
        producer.initTransactions();
        for (int i = 0; i < 2; i++) {
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(TOPIC, 0, "k", "v" + i)).get();
            producer.commitTransaction();
        }
        TransactionDescription description = describe("tx-v1");
        assertThat(description.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
        assertThat(description.producerEpoch()).isZero(); // TV1: no bump at EndTxn
    }

    @Test
    void aSecondInstanceFencesTheFirst() throws Exception {
        start(Map.of(), null);
        KafkaProducer<String, String> first = producer("fenced", Map.of());
        first.initTransactions();
        first.beginTransaction();
        first.send(new ProducerRecord<>(TOPIC, 0, "k", "first")).get();

        KafkaProducer<String, String> second = producer("fenced", Map.of());
        second.initTransactions(); // aborts the first one's open transaction (epoch 1), then bumps once more
        assertThat(describe("fenced").state()).isEqualTo(TransactionState.EMPTY);
        assertThat(describe("fenced").producerEpoch()).isEqualTo(2);

        assertThatThrownBy(first::commitTransaction).isInstanceOf(ProducerFencedException.class);
        second.beginTransaction();
        second.send(new ProducerRecord<>(TOPIC, 0, "k", "second")).get();
        second.commitTransaction();
        assertThat(describe("fenced").state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
    }

    @Test
    void aTransactionOpenPastItsTimeoutIsAbortedAndItsProducerFenced() throws Exception {
        ManualClock clock = new ManualClock();
        start(Map.of(), clock);
        KafkaProducer<String, String> producer = producer("slow", Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
                "60000"));
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(TOPIC, 0, "k", "late")).get();
        int epoch = describe("slow").producerEpoch();

        clock.advance(50_000); // the rounds run, but the transaction is not yet past its timeout
        assertThat(describe("slow").state()).isEqualTo(TransactionState.ONGOING);
        clock.advance(20_000);
        awaitState("slow", TransactionState.COMPLETE_ABORT);
        assertThat(describe("slow").producerEpoch()).isEqualTo(epoch + 1);
        assertThat(listed(Set.of(TransactionState.COMPLETE_ABORT))).contains("slow");

        assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
    }

    @Test
    void theCoordinatorReloadsItsStateAfterARestart() throws Exception {
        start(Map.of(), null);
        KafkaProducer<String, String> producer = producer("durable", Map.of());
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(TOPIC, 0, "k", "open")).get();
        long producerId = describe("durable").producerId();
        producer.close(Duration.ZERO);
        clients.remove(producer);
        broker.close();

        start(Map.of(), null);
        TransactionDescription reloaded = describe("durable");
        assertThat(reloaded.state()).isEqualTo(TransactionState.ONGOING);
        assertThat(reloaded.producerId()).isEqualTo(producerId);
        assertThat(reloaded.topicPartitions()).containsExactly(new TopicPartition(TOPIC, 0));

        KafkaProducer<String, String> again = producer("durable", Map.of());
        again.initTransactions(); // the open transaction is aborted first (epoch 1), then the epoch bumped again
        TransactionDescription after = describe("durable");
        assertThat(after.state()).isEqualTo(TransactionState.EMPTY);
        assertThat(after.producerId()).isEqualTo(producerId);
        assertThat(after.producerEpoch()).isEqualTo(2);
    }

    private KafkaProducer<String, String> producer(String transactionalId, Map<String, String> extra) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000"));
        config.putAll(extra);
        KafkaProducer<String, String> producer = new KafkaProducer<>(config);
        clients.add(producer);
        return producer;
    }

    private TransactionDescription describe(String transactionalId) throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get();
        }
    }

    private List<String> listed(Set<TransactionState> states) throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            return admin.listTransactions(new ListTransactionsOptions().filterStates(states)).all().get().stream()
                    .map(TransactionListing::transactionalId).toList();
        }
    }

    private void awaitState(String transactionalId, TransactionState state) throws Exception {
        await(() -> {
            try {
                return describe(transactionalId).state() == state;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met in 30 s");
            }
            Thread.onSpinWait();
        }
    }

    /** Every record up to the given end offsets (markers included in the offsets), read uncommitted. */
    private List<String> readAll(Map<TopicPartition, Long> ends) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.assign(ends.keySet());
            consumer.seekToBeginning(ends.keySet());
            assertThat(consumer.endOffsets(ends.keySet())).isEqualTo(ends);
            List<String> values = new ArrayList<>();
            while (ends.entrySet().stream().anyMatch(end -> consumer.position(end.getKey()) < end.getValue())) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }
}
