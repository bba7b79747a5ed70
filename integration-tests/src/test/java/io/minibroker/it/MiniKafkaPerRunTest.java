package io.minibroker.it;

import io.minibroker.testkit.junit.BootstrapServers;
import io.minibroker.testkit.junit.MiniKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code lifecycle = PER_RUN}: classes asking for the same configuration share one broker, one with another
 * configuration gets its own. (Nested classes stand in for separate test classes: they share the run's root.)
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MiniKafkaPerRunTest {

    private static final Set<String> SHARED_CONFIG_BROKERS = new HashSet<>();
    private static final Set<String> OTHER_CONFIG_BROKERS = new HashSet<>();

    @Nested
    @MiniKafka(config = "num.partitions=4", lifecycle = MiniKafka.Lifecycle.PER_RUN)
    class FirstClass {
        @Test
        void usesTheRunsBroker(@BootstrapServers String bootstrap) throws Exception {
            SHARED_CONFIG_BROKERS.add(produceOnce(bootstrap));
        }
    }

    @Nested
    @MiniKafka(config = "num.partitions=4", lifecycle = MiniKafka.Lifecycle.PER_RUN)
    class SecondClassWithTheSameConfiguration {
        @Test
        void usesTheSameBroker(@BootstrapServers String bootstrap) throws Exception {
            SHARED_CONFIG_BROKERS.add(produceOnce(bootstrap));
        }
    }

    @Nested
    @MiniKafka(config = "num.partitions=5", lifecycle = MiniKafka.Lifecycle.PER_RUN)
    class ThirdClassWithAnotherConfiguration {
        @Test
        void usesAnotherBroker(@BootstrapServers String bootstrap) throws Exception {
            OTHER_CONFIG_BROKERS.add(produceOnce(bootstrap));
        }
    }

    @AfterAll
    static void oneBrokerPerConfiguration() {
        assertThat(SHARED_CONFIG_BROKERS).hasSize(1);
        assertThat(OTHER_CONFIG_BROKERS).hasSize(1).doesNotContainAnyElementsOf(SHARED_CONFIG_BROKERS);
    }

    private static String produceOnce(String bootstrap) throws Exception {
        try (KafkaProducer<String, String> producer = Clients.producer(bootstrap)) {
            producer.send(new ProducerRecord<>("per-run", "v")).get();
        }
        return bootstrap;
    }
}
