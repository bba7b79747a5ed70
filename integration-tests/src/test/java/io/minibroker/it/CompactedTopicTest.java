package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
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
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Compaction seen by the reference Java client: what a Kafka Streams changelog restore reads. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CompactedTopicTest {

    private static final TopicPartition TABLE = new TopicPartition("table", 0);

    @TempDir
    Path logDir;

    @Test
    void aConsumerReadingACompactedTopicFromTheStartGetsEachKeysLastValueAcrossTheGaps() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("log.cleaner.backoff.ms", "50"))) {
            writeAndAwaitCompaction(kafka.bootstrapServers());

            List<ConsumerRecord<String, String>> read = readAll(kafka.bootstrapServers());
            Map<String, String> table = new LinkedHashMap<>();
            read.forEach(record -> table.put(record.key(), record.value()));
            assertThat(read).as("one record per key: the 52 written compacted to 11").hasSize(11);
            assertThat(table).containsEntry("k0", null).containsEntry("k9", "r4").containsEntry("end", "x").hasSize(11);
            assertThat(read.get(0).offset()).as("the first 41 offsets compacted away").isEqualTo(41);
            assertThat(read.get(read.size() - 1).offset()).isEqualTo(51);
        }
    }

    @Test
    void kcatReadsACompactedTopicAcrossItsGapsAndEmptyBatches() throws Exception {
        Assumptions.assumeTrue(Commands.onPath("kcat"), "kcat is not installed (apt-get install kcat); skipping");
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("log.cleaner.backoff.ms", "50"))) {
            writeAndAwaitCompaction(kafka.bootstrapServers());

            String consumed = Commands.run("", "kcat", "-b", kafka.bootstrapServers(), "-C", "-t", TABLE.topic(),
                    "-o", "beginning", "-e", "-q", "-Z", "-f", "%o %k=%s\n");

            List<String> expected = new ArrayList<>();
            for (int key = 1; key < 10; key++) {
                expected.add((40 + key) + " k" + key + "=r4");
            }
            expected.add("50 k0=NULL"); // kcat's -Z prints a null value so
            expected.add("51 end=x");
            assertThat(consumed.lines()).containsExactlyElementsOf(expected);
        }
    }

    /**
     * Writes ten keys five times over, one record per batch and each round in a segment of its own, then a
     * tombstone and a last record in the active segment, and waits until a read from the start finds them
     * compacted to one record per key.
     */
    private static void writeAndAwaitCompaction(String bootstrapServers) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
             KafkaProducer<String, String> producer = Clients.producer(bootstrapServers)) {
            admin.createTopics(List.of(new NewTopic(TABLE.topic(), 1, (short) 1).configs(Map.of(
                    "cleanup.policy", "compact", "segment.ms", "100", "min.cleanable.dirty.ratio", "0.01"))))
                    .all().get();
            // Each round's records are stamped 150 ms after the last round's: past segment.ms, so the first append
            // of a round rolls a new segment (a roll goes by the records' timestamps, as in Kafka).
            long startMs = System.currentTimeMillis();
            for (int round = 0; round < 5; round++) {
                for (int key = 0; key < 10; key++) { // one batch each: sent one at a time
                    producer.send(new ProducerRecord<>(TABLE.topic(), 0, startMs + round * 150L, "k" + key,
                            "r" + round)).get();
                }
            }
            producer.send(new ProducerRecord<>(TABLE.topic(), 0, startMs + 5 * 150L, "k0", (String) null)).get(); // tombstone
            producer.send(new ProducerRecord<>(TABLE.topic(), 0, startMs + 6 * 150L, "end", "x")).get();
        }
        Eventually.await(() -> readAll(bootstrapServers).size() <= 11, "the cleaner to compact the topic");
    }

    /** The partition from its start to its end, as a restoring Streams task reads its changelog. */
    private static List<ConsumerRecord<String, String>> readAll(String bootstrapServers) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            consumer.assign(List.of(TABLE));
            consumer.seekToBeginning(List.of(TABLE));
            long end = consumer.endOffsets(List.of(TABLE)).get(TABLE);
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            while (consumer.position(TABLE) < end) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }
}
