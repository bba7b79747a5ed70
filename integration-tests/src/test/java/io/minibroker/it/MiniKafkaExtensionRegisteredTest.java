package io.minibroker.it;

import io.minibroker.testkit.junit.MiniKafkaExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The extension registered on a static field, configured in code. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MiniKafkaExtensionRegisteredTest {

    @RegisterExtension
    static final MiniKafkaExtension KAFKA = MiniKafkaExtension.withConfig(Map.of("message.max.bytes", "2000"));

    @Test
    void theFieldGivesTheAddressAndTheConfigurationApplies() throws Exception {
        try (KafkaProducer<String, String> producer = Clients.producer(KAFKA.bootstrapServers())) {
            assertThat(producer.send(new ProducerRecord<>("registered", "small")).get().offset()).isZero();
            // message.max.bytes=2000 reached the broker: a 3 KB record is refused.
            assertThat(producer.send(new ProducerRecord<>("registered", "x".repeat(3_000))))
                    .failsWithin(30, TimeUnit.SECONDS)
                    .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                    .withCauseInstanceOf(org.apache.kafka.common.errors.RecordTooLargeException.class);
        }
    }
}
