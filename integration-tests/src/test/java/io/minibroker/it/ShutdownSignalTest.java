package io.minibroker.it;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** SIGTERM to a broker process: it stops cleanly, exits with 0, and its next start recovers nothing. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShutdownSignalTest {

    @TempDir
    Path logDir;

    @Test
    void sigtermStopsCleanlyExitsZeroAndTheRestartNeedsNoRecovery() throws Exception {
        BrokerProcess first = BrokerProcess.start(logDir);
        Map<String, Object> producerConfig = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, first.bootstrap(),
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig)) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>("signalled", "record-" + i));
            }
            producer.flush();
        }

        // SIGTERM through the handle: Process.destroy() also closes our end of its output, losing its last lines.
        first.process().toHandle().destroy();
        assertThat(first.awaitExit(60, TimeUnit.SECONDS)).as("stopped within a minute").isTrue();

        assertThat(first.process().exitValue()).isZero();
        assertThat(first.output()).anyMatch(line -> line.contains("Stopping on a shutdown signal"))
                .anyMatch(line -> line.contains("Exiting with status 0"));
        assertThat(logDir.resolve(".kafka_cleanshutdown")).exists();

        BrokerProcess second = BrokerProcess.start(logDir);
        try {
            assertThat(second.output()).anyMatch(line -> line.contains("after a clean shutdown"))
                    .noneMatch(line -> line.contains("after recovery"))
                    .anyMatch(line -> line.contains("Opened signalled-0 with offsets 0..100 "));
            assertThat(Files.exists(logDir.resolve(".kafka_cleanshutdown"))).as("removed once open").isFalse();
        } finally {
            second.process().destroy();
            second.process().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
