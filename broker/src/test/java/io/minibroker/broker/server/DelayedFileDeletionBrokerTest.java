package io.minibroker.broker.server;

import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
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
 * The broker deletes files as Kafka does: DeleteRecords' segments renamed {@code .deleted} at once and deleted after
 * the topic's {@code file.delete.delay.ms}, a deleted topic's partition directories renamed
 * {@code <topic>-<partition>.<id>-delete} and deleted after {@code log.segment.delete.delay.ms}, on the broker's
 * scheduler and clock.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DelayedFileDeletionBrokerTest {

    private static final String TOPIC = "trimmed";
    private static final long FILE_DELETE_DELAY_MS = 7_000;
    private static final long LOG_DELETE_DELAY_MS = 11_000;

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
    void deleteRecordsAndDeleteTopicsLeaveTheFilesRenamedUntilTheirDelayHasPassed() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("log.segment.delete.delay.ms", Long.toString(LOG_DELETE_DELAY_MS)),
                clock);
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(Map.of(
                    "file.delete.delay.ms", Long.toString(FILE_DELETE_DELAY_MS), "segment.ms", "5")))).all().get();
            produceOnePerSegment(3); // segment.ms 5 and timestamps 10 ms apart: one segment per record
            Path partitionDir = logDir.resolve(TOPIC + "-0");

            admin.deleteRecords(Map.of(new TopicPartition(TOPIC, 0), RecordsToDelete.beforeOffset(2))).all().get();
            assertThat(names(partitionDir)).contains("00000000000000000000.log.deleted",
                    "00000000000000000001.log.deleted", "00000000000000000002.log")
                    .doesNotContain("00000000000000000000.log", "00000000000000000001.log");
            clock.advance(FILE_DELETE_DELAY_MS - 1);
            assertThat(names(partitionDir)).contains("00000000000000000000.log.deleted");
            clock.advance(1);
            assertThat(names(partitionDir)).noneMatch(name -> name.endsWith(".deleted"))
                    .contains("00000000000000000002.log");

            admin.deleteTopics(List.of(TOPIC)).all().get();
            assertThat(partitionDir).doesNotExist();
            List<String> renamed = names(logDir).stream().filter(name -> name.endsWith("-delete")).toList();
            assertThat(renamed).singleElement().asString().matches(TOPIC + "-0\\.[0-9a-f]{32}-delete");
            clock.advance(LOG_DELETE_DELAY_MS - 1);
            assertThat(logDir.resolve(renamed.get(0))).exists();
            clock.advance(1);
            assertThat(logDir.resolve(renamed.get(0))).doesNotExist();
        }
    }

    @Test
    void aDynamicLogSegmentDeleteDelayIsTheOneADeletedTopicsDirectoriesWaitAndTheTopicsDefault() throws Exception {
        broker = TestBrokers.start(logDir, Map.of("log.segment.delete.delay.ms", Long.toString(LOG_DELETE_DELAY_MS)),
                clock);
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.BROKER, ""),
                    List.of(new AlterConfigOp(new ConfigEntry("log.segment.delete.delay.ms", "1000"),
                            AlterConfigOp.OpType.SET)))).all().get();
            ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
            ConfigEntry delay = admin.describeConfigs(List.of(topic)).all().get().get(topic)
                    .get("file.delete.delay.ms");
            assertThat(delay.value()).isEqualTo("1000");
            assertThat(delay.source()).isEqualTo(ConfigEntry.ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG);

            admin.deleteTopics(List.of(TOPIC)).all().get();
            List<String> renamed = names(logDir).stream().filter(name -> name.endsWith("-delete")).toList();
            assertThat(renamed).hasSize(1);
            clock.advance(999);
            assertThat(logDir.resolve(renamed.get(0))).exists();
            clock.advance(1);
            assertThat(logDir.resolve(renamed.get(0))).doesNotExist();
        }
    }

    private void produceOnePerSegment(int records) throws Exception {
        long timestamp = System.currentTimeMillis();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT")),
                new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 0, timestamp + 10L * i, null, "v" + i)).get();
            }
        }
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }
}
