package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.Broker;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Unmodified kafka-clients 4.4.0 producers and consumers against the broker. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProduceConsumeTest {

    @TempDir
    Path logDir;

    private static String bootstrap(Broker broker) {
        return "localhost:" + broker.boundPort("PLAINTEXT");
    }

    /** Fetches parked in the broker's fetch purgatory now. */
    private static double parkedFetches(Broker broker) {
        return broker.meterRegistry().get("purgatory.delayed.operations").tag("delayedOperation", "Fetch").gauge()
                .value();
    }

    private static KafkaProducer<String, String> producer(Broker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(broker));
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        config.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        config.putAll(extra);
        return new KafkaProducer<>(config);
    }

    private static KafkaConsumer<String, String> consumer(Broker broker, Map<String, Object> extra) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(broker));
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.putAll(extra);
        return new KafkaConsumer<>(config);
    }

    private static List<ConsumerRecord<String, String>> readAll(KafkaConsumer<String, String> consumer,
                                                                List<TopicPartition> partitions, int expected) {
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (records.size() < expected && System.nanoTime() < deadline) {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        return records;
    }

    @ParameterizedTest(name = "acks={0}")
    @ValueSource(strings = {"all", "1", "0"})
    void recordsProducedWithEachAcksSettingAreConsumedInOrder(String acks) throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             KafkaProducer<String, String> producer = producer(broker, Map.of(ProducerConfig.ACKS_CONFIG, acks))) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("events", "key-" + i, "value-" + i));
            }
            producer.flush();
            try (KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
                List<ConsumerRecord<String, String>> records =
                        readAll(consumer, List.of(new TopicPartition("events", 0)), 100);

                assertThat(records).extracting(ConsumerRecord::value)
                        .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 100).mapToObj(i -> "value-" + i).toList());
                assertThat(records).extracting(ConsumerRecord::offset)
                        .containsExactlyElementsOf(java.util.stream.LongStream.range(0, 100).boxed().toList());
            }
            if (!acks.equals("0")) {
                RecordMetadata next = producer.send(new ProducerRecord<>("events", "k", "v")).get();
                assertThat(next.offset()).isEqualTo(100);
            }
            double viaPurgatory = broker.meterRegistry().get("purgatory.completions")
                    .tag("delayedOperation", "Produce").functionCounter().count();
            if (acks.equals("all")) {
                assertThat(viaPurgatory).as("every acks=all request went through the produce purgatory").isPositive();
            } else {
                assertThat(viaPurgatory).isZero();
            }
        }
    }

    @Test
    void aProducerWithDefaultConfigIsIdempotentAndDeliversEveryRecordOnce() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             KafkaProducer<String, String> producer = producer(broker, Map.of())) {
            for (int i = 0; i < 1_000; i++) {
                producer.send(new ProducerRecord<>("idempotent", "k" + (i % 10), "v" + i));
            }
            producer.flush();
            try (KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
                List<ConsumerRecord<String, String>> records =
                        readAll(consumer, List.of(new TopicPartition("idempotent", 0)), 1_000);

                assertThat(records).extracting(ConsumerRecord::value).containsExactlyElementsOf(
                        java.util.stream.IntStream.range(0, 1_000).mapToObj(i -> "v" + i).toList());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"none", "gzip", "snappy", "lz4", "zstd"})
    void everyCompressionTypeRoundTrips(String compression) throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             KafkaProducer<String, String> producer = producer(broker, Map.of(
                     ProducerConfig.COMPRESSION_TYPE_CONFIG, compression, ProducerConfig.LINGER_MS_CONFIG, 50))) {
            for (int i = 0; i < 500; i++) {
                producer.send(new ProducerRecord<>("compressed", null, "payload " + i + " " + "x".repeat(i % 50)));
            }
            producer.flush();
            try (KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
                List<ConsumerRecord<String, String>> records =
                        readAll(consumer, List.of(new TopicPartition("compressed", 0)), 500);

                assertThat(records).hasSize(500);
                assertThat(records.get(499).value()).startsWith("payload 499 ");
            }
        }
    }

    @Test
    void aParkedLongPollIsWokenByTheAppendNotByItsTimeout() throws Exception {
        // On a manual clock that never moves, a parked fetch cannot time out: only the append can answer it.
        try (Broker broker = EmbeddedBroker.start(Map.of(), new ManualClock()).broker();
             KafkaProducer<String, String> producer = producer(broker, Map.of());
             KafkaConsumer<String, String> consumer = consumer(broker, Map.of(
                     ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 5000))) {
            producer.send(new ProducerRecord<>("poll", "first")).get();
            TopicPartition tp = new TopicPartition("poll", 0);
            assertThat(readAll(consumer, List.of(tp), 1)).hasSize(1);
            double fetchesBefore = broker.meterRegistry().get("kafka.network.requestmetrics.requests").tag("request", "Fetch")
                    .counter().count();

            CompletableFuture<List<ConsumerRecord<String, String>>> next = CompletableFuture.supplyAsync(() -> {
                List<ConsumerRecord<String, String>> records = new ArrayList<>();
                while (records.isEmpty()) {
                    consumer.poll(Duration.ofSeconds(10)).forEach(records::add);
                }
                return records;
            });
            Eventually.await(() -> parkedFetches(broker) == 1, "the consumer's fetch to be parked");
            producer.send(new ProducerRecord<>("poll", "second")).get();

            assertThat(next.get(30, TimeUnit.SECONDS)).extracting(ConsumerRecord::value).containsExactly("second");
            double fetchesDuringIdle = broker.meterRegistry().get("kafka.network.requestmetrics.requests").tag("request", "Fetch")
                    .counter().count() - fetchesBefore;
            assertThat(fetchesDuringIdle).as("an idle consumer parks instead of polling").isLessThan(10);
            // Its next fetch is parked on the still clock for good: a close would wait the request timeout for it.
            consumer.close(CloseOptions.timeout(Duration.ZERO));
        }
    }

    @Test
    void listOffsetsFindsEarliestLatestAndByTimestamp() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             KafkaProducer<String, String> producer = producer(broker, Map.of(ProducerConfig.LINGER_MS_CONFIG, 0))) {
            long base = System.currentTimeMillis() - 100_000;
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("timed", 0, base + i * 1_000L, null, "r" + i)).get();
            }
            TopicPartition tp = new TopicPartition("timed", 0);
            try (KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
                assertThat(consumer.beginningOffsets(List.of(tp))).containsEntry(tp, 0L);
                assertThat(consumer.endOffsets(List.of(tp))).containsEntry(tp, 10L);
                OffsetAndTimestamp found = consumer.offsetsForTimes(Map.of(tp, base + 4_500L)).get(tp);
                assertThat(found.offset()).isEqualTo(5);
                assertThat(found.timestamp()).isEqualTo(base + 5_000L);
                assertThat(consumer.offsetsForTimes(Map.of(tp, base + 60_000L)).get(tp)).isNull();
            }
        }
    }

    @Test
    void aLargeRecordRoundTripsAndOneOverTheTopicLimitIsRefusedWhileTheProducerKeepsWorking() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(broker)));
             KafkaProducer<String, String> producer = producer(broker, Map.of())) {
            admin.createTopics(List.of(new NewTopic("small", 1, (short) 1)
                    .configs(Map.of("max.message.bytes", "10000")))).all().get();
            String big = "b".repeat(900_000);
            producer.send(new ProducerRecord<>("large", big)).get();

            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("small", "s".repeat(20_000))).get())
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(RecordTooLargeException.class);
            assertThat(producer.send(new ProducerRecord<>("small", "fits")).get().offset()).isZero();
            try (KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
                assertThat(readAll(consumer, List.of(new TopicPartition("large", 0)), 1))
                        .singleElement().satisfies(r -> assertThat(r.value()).hasSize(900_000));
            }
        }
    }

    @Test
    void retentionRunsInTheBackgroundAndMovesTheLogStart() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = EmbeddedBroker.start(Map.of("log.retention.check.interval.ms", "100"), clock).broker();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(broker)));
             KafkaProducer<String, String> producer = producer(broker, Map.of())) {
            admin.createTopics(List.of(new NewTopic("short-lived", 1, (short) 1)
                    .configs(Map.of("retention.ms", "60000")))).all().get();
            long hourAgo = System.currentTimeMillis() - 3_600_000;
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>("short-lived", 0, hourAgo, null, "old-" + i)).get();
            }
            TopicPartition tp = new TopicPartition("short-lived", 0);
            try (KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
                assertThat(consumer.beginningOffsets(List.of(tp))).containsEntry(tp, 0L);
                clock.advance(100); // a retention round comes due, and has run when advance returns

                assertThat(consumer.beginningOffsets(List.of(tp))).as("records an hour old are past retention")
                        .containsEntry(tp, 10L);
                assertThat(consumer.endOffsets(List.of(tp))).containsEntry(tp, 10L);
            }
        }
    }

    @Test
    void everyRecordSurvivesARestartOnTheSameDirectory() throws Exception {
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             KafkaProducer<String, String> producer = producer(broker, Map.of())) {
            for (int i = 0; i < 1_000; i++) {
                producer.send(new ProducerRecord<>("durable", "k" + (i % 7), "v" + i));
            }
            producer.flush();
        }
        try (Broker broker = EmbeddedBroker.start(logDir, Map.of()).broker();
             KafkaConsumer<String, String> consumer = consumer(broker, Map.of())) {
            List<ConsumerRecord<String, String>> records =
                    readAll(consumer, List.of(new TopicPartition("durable", 0)), 1_000);

            assertThat(records).hasSize(1_000);
            assertThat(records.get(999).value()).isEqualTo("v999");
        }
    }
}
