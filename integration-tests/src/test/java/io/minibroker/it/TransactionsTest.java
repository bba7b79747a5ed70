package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.minibroker.it.TxClients.readToEnd;
import static io.minibroker.it.TxClients.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transactions end to end on one broker with kafka-clients 4.4.0, under both transaction versions (2, Kafka 4's
 * default, where the client adds partitions through Produce; 1, where it sends AddPartitionsToTxn): what
 * read_committed and read_uncommitted consumers see, fencing, the timeout abort, consume-transform-produce.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionsTest {

    private final List<AutoCloseable> closeables = new ArrayList<>();
    private EmbeddedBroker broker;

    @AfterEach
    void close() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private void start(String transactionVersion, String topic, int partitions) throws Exception {
        start(Map.of("minibroker.transaction.version", transactionVersion), topic, partitions);
    }

    private void start(Map<String, String> overrides, String topic, int partitions) throws Exception {
        broker = EmbeddedBroker.start(overrides);
        closeables.add(broker);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private KafkaProducer<String, String> producer(String transactionalId, Map<String, ?> extra) {
        KafkaProducer<String, String> producer = TxClients.transactionalProducer(broker.bootstrapServers(),
                transactionalId, extra);
        closeables.add(() -> producer.close(Duration.ZERO));
        return producer;
    }

    private static void send(KafkaProducer<String, String> producer, String topic, String prefix, int from, int to)
            throws Exception {
        for (int i = from; i < to; i++) {
            producer.send(new ProducerRecord<>(topic, 0, "k", prefix + i)).get();
        }
    }

    private static List<String> named(String prefix, int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> prefix + i).toList();
    }

    /**
     * Committed, aborted and still-open transactions interleaved on one partition: read_committed stops at the
     * open transaction's first record (the last stable offset) and never sees an aborted record; once the open
     * one aborts it reads on to the end. read_uncommitted sees every record, in log order.
     */
    @ParameterizedTest(name = "transaction version {0}")
    @ValueSource(strings = {"1", "2"})
    void eachIsolationLevelSeesWhatItShould(String transactionVersion) throws Exception {
        start(transactionVersion, "orders", 1);
        broker.controls().requestLog().start();
        TopicPartition tp = new TopicPartition("orders", 0);
        KafkaProducer<String, String> writer = producer("writer", Map.of());
        KafkaProducer<String, String> slow = producer("slow", Map.of());
        writer.initTransactions();
        slow.initTransactions();

        writer.beginTransaction();
        send(writer, "orders", "c", 0, 5);
        writer.commitTransaction();
        writer.beginTransaction();
        send(writer, "orders", "a", 0, 5);
        writer.abortTransaction();
        slow.beginTransaction();
        send(slow, "orders", "open", 0, 2);
        writer.beginTransaction();
        send(writer, "orders", "c", 5, 10);
        writer.commitTransaction();

        assertThat(values(readToEnd(broker.bootstrapServers(), "read_committed", List.of(tp))))
                .as("read_committed stops before the open transaction").containsExactlyElementsOf(named("c", 0, 5));
        List<String> uncommitted = new ArrayList<>(named("c", 0, 5));
        uncommitted.addAll(named("a", 0, 5));
        uncommitted.addAll(named("open", 0, 2));
        uncommitted.addAll(named("c", 5, 10));
        assertThat(values(readToEnd(broker.bootstrapServers(), "read_uncommitted", List.of(tp))))
                .containsExactlyElementsOf(uncommitted);

        slow.abortTransaction();
        assertThat(values(readToEnd(broker.bootstrapServers(), "read_committed", List.of(tp))))
                .as("read_committed once the open transaction aborted").containsExactlyElementsOf(named("c", 0, 10));
        assertThat(values(readToEnd(broker.bootstrapServers(), "read_uncommitted", List.of(tp))))
                .containsExactlyElementsOf(uncommitted);
        // A read_committed consumer waiting at the end gets the next committed transaction as it commits.
        try (KafkaConsumer<String, String> tail = TxClients.consumer(broker.bootstrapServers(), "read_committed",
                Map.of())) {
            tail.assign(List.of(tp));
            tail.seekToEnd(List.of(tp));
            tail.position(tp);
            writer.beginTransaction();
            send(writer, "orders", "late", 0, 3);
            assertThat(tail.poll(Duration.ofMillis(300))).isEmpty();
            writer.commitTransaction();
            List<String> late = new ArrayList<>();
            Eventually.await(() -> {
                tail.poll(Duration.ofMillis(100)).forEach(record -> late.add(record.value()));
                return late.size() >= 3;
            }, "the late transaction");
            assertThat(late).containsExactlyElementsOf(named("late", 0, 3));
        }
        // The client takes the version the broker finalizes (ApiVersions' transaction.version), as the wire shows.
        assertThat(TransactionVersionOnTheWire.used(broker.controls().requestLog()))
                .isEqualTo(Integer.parseInt(transactionVersion));
    }

    /** A second instance with the same transactional.id fences the first; the first's open records are aborted. */
    @ParameterizedTest(name = "transaction version {0}")
    @ValueSource(strings = {"1", "2"})
    void aSecondInstanceFencesTheFirst(String transactionVersion) throws Exception {
        start(transactionVersion, "fenced", 1);
        TopicPartition tp = new TopicPartition("fenced", 0);
        KafkaProducer<String, String> first = producer("shared", Map.of());
        first.initTransactions();
        first.beginTransaction();
        send(first, "fenced", "first", 0, 3);

        KafkaProducer<String, String> second = producer("shared", Map.of());
        second.initTransactions();
        // As Kafka's leader answers a fenced producer's produce (AddPartitionsToTxnManager): INVALID_PRODUCER_EPOCH,
        // an abortable error; the abort's EndTxn then meets PRODUCER_FENCED, which is fatal.
        assertThatThrownBy(() -> first.send(new ProducerRecord<>("fenced", 0, "k", "first-after")).get())
                .hasCauseInstanceOf(InvalidProducerEpochException.class);
        assertThatThrownBy(first::abortTransaction).isInstanceOf(ProducerFencedException.class);
        second.beginTransaction();
        send(second, "fenced", "second", 0, 3);
        second.commitTransaction();

        assertThat(values(readToEnd(broker.bootstrapServers(), "read_committed", List.of(tp))))
                .containsExactlyElementsOf(named("second", 0, 3));
        assertThat(values(readToEnd(broker.bootstrapServers(), "read_uncommitted", List.of(tp))))
                .containsSubsequence(named("first", 0, 3)).containsSubsequence(named("second", 0, 3))
                .doesNotContain("first-after");
    }

    /**
     * A transaction left open past its transaction.timeout.ms (one second) is aborted by the coordinator's round
     * (every 100 ms here), waited for as the describe it shows: read_committed moves past it and never sees its
     * records; the producer learns it was fenced. (On a ManualClock this passes too, but slowly: a consumer's close
     * waits behind its parked fetch, whose fetch.max.wait.ms never passes on a clock nobody moves, so every close
     * takes the client's 30 s.)
     */
    @ParameterizedTest(name = "transaction version {0}")
    @ValueSource(strings = {"1", "2"})
    void aTransactionOpenPastItsTimeoutIsAborted(String transactionVersion) throws Exception {
        start(Map.of("minibroker.transaction.version", transactionVersion,
                "transaction.abort.timed.out.transaction.cleanup.interval.ms", "100"), "timed", 1);
        TopicPartition tp = new TopicPartition("timed", 0);
        KafkaProducer<String, String> producer = producer("forgetful",
                Map.of(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, 1_000));
        producer.initTransactions();
        producer.beginTransaction();
        send(producer, "timed", "left", 0, 3);
        try (Admin admin = admin()) {
            Eventually.await(() -> describeState(admin, "forgetful") == TransactionState.COMPLETE_ABORT,
                    "the coordinator's abort of the timed-out transaction");
        }
        assertThatThrownBy(producer::commitTransaction).isInstanceOf(KafkaException.class);
        try (KafkaConsumer<String, String> consumer = TxClients.consumer(broker.bootstrapServers(), "read_committed",
                Map.of())) {
            // 3 records and the ABORT marker: the last stable offset is past them all.
            assertThat(consumer.endOffsets(List.of(tp)).get(tp)).isEqualTo(4);
        }
        assertThat(readToEnd(broker.bootstrapServers(), "read_committed", List.of(tp))).isEmpty();
        assertThat(values(readToEnd(broker.bootstrapServers(), "read_uncommitted", List.of(tp))))
                .containsExactlyElementsOf(named("left", 0, 3));
    }

    private static TransactionState describeState(Admin admin, String transactionalId) {
        try {
            return admin.describeTransactions(List.of(transactionalId)).description(transactionalId).get().state();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * consume-transform-produce with sendOffsetsToTransaction, one transaction in three aborted on purpose (and
     * its input read again from the committed offsets): every input's output appears exactly once to
     * read_committed, and the group's committed offsets are the input's ends.
     */
    @ParameterizedTest(name = "transaction version {0}")
    @ValueSource(strings = {"1", "2"})
    void consumeTransformProduceOutputsEachInputOnce(String transactionVersion) throws Exception {
        start(transactionVersion, "input", 3);
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("output", 2, (short) 1))).all().get();
        }
        int inputs = 600;
        try (KafkaProducer<String, String> plain = Clients.producer(broker.bootstrapServers())) {
            for (int i = 0; i < inputs; i++) {
                plain.send(new ProducerRecord<>("input", i % 3, "k" + i, "in-" + i));
            }
        }
        TransformLoop loop = new TransformLoop(broker.bootstrapServers(), 3, 3, Map.of());
        loop.run();
        assertThat(loop.committed.get()).isGreaterThan(3);
        TransformLoop.assertOutputOnceAndOffsetsAtEnd(broker.bootstrapServers(), inputs, 3, 2);
    }
}
