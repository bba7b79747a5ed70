package io.minibroker.it;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.control.LoggedRequest;
import io.minibroker.broker.control.RequestLog;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A kafka-clients 4.4 consumer on 50 partitions fetches in an incremental fetch session (KIP-227), as against Kafka:
 * the broker keeps one session of its 50 partitions, the consumer's later Fetch requests name only the partitions
 * whose position moved (none at all once it has read everything), no fetch is refused for its session, and every
 * record arrives, those produced after the session opened included. (franz-go's: FranzGoSmokeTest.)
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FetchSessionsClientsTest {

    static final String TOPIC = "many";
    static final int PARTITIONS = 50;
    static final int PER_PARTITION = 10;
    private static final String CLIENT_ID = "sessions-consumer";

    @TempDir
    Path logDir;

    /** Creates the topic and puts {@link #PER_PARTITION} records in each partition. */
    static void fill(EmbeddedBroker kafka) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 1))).all().get();
            for (int p = 0; p < PARTITIONS; p++) {
                for (int i = 0; i < PER_PARTITION; i++) {
                    producer.send(new ProducerRecord<>(TOPIC, p, null, p + "-" + i));
                }
            }
            producer.flush();
        }
    }

    /** The Fetch requests {@code clientId} sent, checked to have met no session error. */
    static List<LoggedRequest> fetchesOf(RequestLog log, String clientId) {
        List<LoggedRequest> fetches = log.find(RequestMatch.api(ApiKey.FETCH).clientId(clientId));
        for (LoggedRequest fetch : fetches) {
            assertThat(fetch.errors()).as(fetch.toString()).doesNotContain(Errors.FETCH_SESSION_ID_NOT_FOUND,
                    Errors.INVALID_FETCH_SESSION_EPOCH, Errors.FETCH_SESSION_TOPIC_ID_ERROR);
        }
        return fetches;
    }

    static int partitionsNamed(LoggedRequest fetch) {
        return fetch.facts().topics().values().stream().mapToInt(List::size).sum();
    }

    @Test
    void aKafkaClientsConsumerOnFiftyPartitionsFetchesIncrementally() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of())) {
            fill(kafka);
            kafka.controls().requestLog().start();
            Set<String> read = new HashSet<>();
            List<TopicPartition> partitions = IntStream.range(0, PARTITIONS)
                    .mapToObj(p -> new TopicPartition(TOPIC, p)).toList();
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                    ConsumerConfig.CLIENT_ID_CONFIG, CLIENT_ID,
                    ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                    ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class));
                 KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
                consumer.assign(partitions);
                consumer.seekToBeginning(partitions);
                pollUntil(consumer, read, PARTITIONS * PER_PARTITION);
                for (int p = 0; p < 5; p++) {
                    producer.send(new ProducerRecord<>(TOPIC, p, null, "late-" + p)).get();
                }
                pollUntil(consumer, read, PARTITIONS * PER_PARTITION + 5);

                MeterRegistry meters = kafka.broker().meterRegistry();
                assertThat(meters.get("kafka.server.fetchsessioncache.numincrementalfetchsessions").gauge().value())
                        .isEqualTo(1.0);
                assertThat(meters.get("kafka.server.fetchsessioncache.numincrementalfetchpartitionscached").gauge()
                        .value()).isEqualTo(PARTITIONS);
            }
            assertThat(read).hasSize(PARTITIONS * PER_PARTITION + 5).contains("late-0", "late-4", "49-9");
            List<LoggedRequest> fetches = fetchesOf(kafka.controls().requestLog(), CLIENT_ID);
            assertThat(fetches).as("a session opened, then fetches naming only what moved")
                    .anySatisfy(fetch -> assertThat(partitionsNamed(fetch)).isZero());
        }
    }

    private static void pollUntil(KafkaConsumer<String, String> consumer, Set<String> read, int count) {
        while (read.size() < count) {
            for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                read.add(record.value());
            }
        }
    }
}
