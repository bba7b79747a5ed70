package io.minibroker.broker.produce;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
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
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-clients producers against a broker on a manual clock: a producer idle for {@code producer.id.expiration.ms}
 * leaves the partition's state at the next {@code producer.id.expiration.check.interval.ms} round (as
 * DescribeProducers shows), one with a transaction open stays, an expired one's next batch (a sequence past 0) is
 * taken as Kafka 4 takes it, and a restart does not bring an expired one back.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProducerIdExpirationTest {

    private static final String TOPIC = "expiring";
    private static final TopicPartition PARTITION = new TopicPartition(TOPIC, 0);
    /** Ten minutes: the batches carry the client's real time, a little ahead of the manual clock's wall clock. */
    private static final long EXPIRATION_MS = 600_000;
    private static final Map<String, String> CONFIG = Map.of(
            "producer.id.expiration.ms", Long.toString(EXPIRATION_MS),
            "producer.id.expiration.check.interval.ms", "1000");

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

    private ManualClock start() throws Exception {
        ManualClock clock = new ManualClock();
        broker = TestBrokers.start(logDir, CONFIG, clock);
        return clock;
    }

    /** A broker whose round comes only after a day: what expires before that goes as it starts, or not at all. */
    private void startWithoutRounds() throws Exception {
        Map<String, String> config = new HashMap<>(CONFIG);
        config.put("producer.id.expiration.check.interval.ms", "86400000");
        broker = TestBrokers.start(logDir, config, new ManualClock());
    }

    private KafkaProducer<String, String> producer(Map<String, String> extra) {
        Map<String, Object> config = new HashMap<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class));
        config.putAll(extra);
        KafkaProducer<String, String> producer = new KafkaProducer<>(config);
        clients.add(producer);
        return producer;
    }

    private RecordMetadata send(KafkaProducer<String, String> producer, String value) throws Exception {
        return producer.send(new ProducerRecord<>(TOPIC, 0, "k", value)).get();
    }

    private Map<Long, ProducerState> producers() throws Exception {
        Map<Long, ProducerState> byId = new HashMap<>();
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.describeProducers(List.of(PARTITION)).partitionResult(PARTITION).get().activeProducers()
                    .forEach(state -> byId.put(state.producerId(), state));
        }
        return byId;
    }

    private void createTopic() throws Exception {
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
        }
    }

    @Test
    void anIdleProducerExpiresAfterTheTimeNotBeforeUnlessItsTransactionIsOpen() throws Exception {
        ManualClock clock = start();
        createTopic();
        KafkaProducer<String, String> idempotent = producer(Map.of());
        for (int i = 0; i < 3; i++) {
            send(idempotent, "i" + i);
        }
        KafkaProducer<String, String> transactional = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "open",
                ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, "900000")); // not aborted by its timeout meanwhile
        transactional.initTransactions();
        transactional.beginTransaction();
        send(transactional, "t0");
        Map<Long, ProducerState> before = producers();
        assertThat(before).hasSize(2);
        long idempotentId = before.values().stream().filter(p -> p.currentTransactionStartOffset().isEmpty())
                .findFirst().orElseThrow().producerId();

        clock.advance(EXPIRATION_MS / 2);
        assertThat(producers()).as("not idle long enough yet").hasSize(2);

        clock.advance(EXPIRATION_MS / 2 + 100_000);
        Map<Long, ProducerState> after = producers();
        assertThat(after).as("the idle producer went, the one with an open transaction stayed").hasSize(1)
                .doesNotContainKey(idempotentId);

        // Its next batch has sequence 3, which a producer the partition does not know may start at (Kafka 4).
        RecordMetadata next = send(idempotent, "i3");
        assertThat(next.offset()).isEqualTo(4); // after i0-i2 and t0
        assertThat(producers().get(idempotentId).lastSequence()).isEqualTo(3);
        transactional.commitTransaction();
    }

    @Test
    void aProducerAlreadyIdleLongEnoughWhenTheBrokerStartsIsLeftOutAtOnce() throws Exception {
        startWithoutRounds();
        createTopic();
        KafkaProducer<String, String> idempotent = producer(Map.of());
        long anHourAgo = System.currentTimeMillis() - 3_600_000; // CreateTime: the producer's own timestamp counts
        idempotent.send(new ProducerRecord<>(TOPIC, 0, anHourAgo, "k", "old")).get();
        assertThat(producers()).as("no round has run").hasSize(1);
        idempotent.close(Duration.ofSeconds(5));
        broker.close(); // its snapshot holds the producer

        startWithoutRounds();

        assertThat(producers()).as("left out as the snapshot is loaded, as Kafka loads one").isEmpty();
    }

    @Test
    void aRestartDoesNotBringAnExpiredProducerBack() throws Exception {
        ManualClock clock = start();
        createTopic();
        KafkaProducer<String, String> idempotent = producer(Map.of());
        send(idempotent, "once");
        assertThat(producers()).hasSize(1);
        clock.advance(EXPIRATION_MS + 100_000);
        assertThat(producers()).isEmpty();
        idempotent.close(Duration.ofSeconds(5));

        broker.close();
        // A new clock: the broker's wall clock starts at the real time again, when the batch is not old.
        broker = TestBrokers.start(logDir, CONFIG, new ManualClock());

        assertThat(producers()).isEmpty();
    }
}
