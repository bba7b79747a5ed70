package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The embedded API as a user's test would use it. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmbeddedBrokerTest {

    @Test
    void startsOnAFreePortInATemporaryDirectoryThatCloseRemoves() throws Exception {
        Path dir;
        try (EmbeddedBroker kafka = EmbeddedBroker.start();
             KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                     ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class,
                     ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class))) {
            dir = kafka.logDir();

            assertThat(kafka.bootstrapServers()).startsWith("localhost:").doesNotEndWith(":0");
            assertThat(producer.send(new ProducerRecord<>("embedded", "hello")).get().offset()).isZero();
            assertThat(dir.resolve("embedded-0")).isDirectory();
        }
        assertThat(dir).doesNotExist();
    }
}
