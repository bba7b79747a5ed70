package io.minibroker.broker.server;

import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A single node writes {@code replication-offset-checkpoint} as Kafka's ReplicaManager does for partitions that are
 * not replicated too: every {@code replica.high.watermark.checkpoint.interval.ms} (5000 by default) on the broker's
 * clock, and at a clean stop, with each partition's high watermark (here its log end).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SingleNodeHighWatermarkCheckpointTest {

    private static final String TOPIC = "watermarks";

    @TempDir
    Path logDir;
    private final ManualClock clock = new ManualClock();
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void writesTheHighWatermarksEveryIntervalAndAtACleanStop() throws Exception {
        broker = TestBrokers.start(logDir, Map.of(), clock);
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 3, (short) 1))).all().get();
        }
        produce(0, 4);
        produce(2, 1);

        clock.advance(4_999);
        assertThat(checkpoint()).as("nothing before the first interval has passed").isEmpty();
        clock.advance(1);
        assertThat(checkpoint()).as("Kafka's format: version 0, a count, then topic partition offset")
                .containsExactly("0", "3", TOPIC + " 0 4", TOPIC + " 1 0", TOPIC + " 2 1");

        produce(1, 2);
        broker.close();
        assertThat(checkpoint()).as("written again at the clean stop")
                .containsExactly("0", "3", TOPIC + " 0 4", TOPIC + " 1 2", TOPIC + " 2 1");
    }

    private void produce(int partition, int count) throws Exception {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT")),
                new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>(TOPIC, partition, null, "v" + i)).get();
            }
        }
    }

    /** The file's lines, sorted after the two header lines (Kafka writes the entries in no order); none if absent. */
    private List<String> checkpoint() throws IOException {
        Path file = logDir.resolve("replication-offset-checkpoint");
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> lines = Files.readAllLines(file);
        return Stream.concat(lines.stream().limit(2), lines.stream().skip(2).sorted()).toList();
    }
}
