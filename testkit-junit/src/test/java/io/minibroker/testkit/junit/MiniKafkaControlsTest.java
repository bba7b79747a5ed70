package io.minibroker.testkit.junit;

import io.minibroker.broker.control.BrokerControls;
import io.minibroker.broker.control.Controls;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code @MiniKafka} hands a test the broker's controls, as a field and as a parameter, and resets them after it. */
@MiniKafka(topics = @MiniKafka.Topic(name = "controlled"))
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MiniKafkaControlsTest {

    @ControlsOf
    BrokerControls controls;

    @Test
    @Order(1)
    void anIdempotentProducerRidesThroughInjectedErrors(Controls parameter, @BootstrapServers String bootstrap)
            throws Exception {
        assertThat(parameter).isSameAs(controls);
        controls.requestLog().start();
        parameter.failNext(ApiKey.PRODUCE, Errors.NOT_LEADER_OR_FOLLOWER, 2);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 10), new StringSerializer(), new StringSerializer())) {
            assertThat(producer.send(new ProducerRecord<>("controlled", "k", "v")).get(30, TimeUnit.SECONDS)
                    .offset()).isZero();
        }
        assertThat(controls.requestLog().find(RequestMatch.api(ApiKey.PRODUCE).topic("controlled")))
                .hasSize(3).filteredOn(logged -> logged.errors().contains(Errors.NOT_LEADER_OR_FOLLOWER)).hasSize(2);
        parameter.delayAll(5_000); // left set on purpose: the reset after this test removes it
        parameter.failNext(ApiKey.PRODUCE, Errors.NOT_LEADER_OR_FOLLOWER, 5);
    }

    @Test
    @Order(2)
    void theNextTestStartsWithEveryControlOff() {
        assertThat(controls.errorRules()).isEmpty();
        assertThat(controls.engaged()).isFalse();
        assertThat(controls.requestLog().recording()).isFalse();
        assertThat(controls.requestLog().find(RequestMatch.any())).isEmpty();
    }
}
