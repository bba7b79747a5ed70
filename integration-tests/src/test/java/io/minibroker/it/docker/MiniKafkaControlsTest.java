package io.minibroker.it.docker;

import io.minibroker.broker.control.Controls;
import io.minibroker.broker.control.ErrorRule;
import io.minibroker.broker.control.LoggedRequest;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.it.Clients;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.testkit.container.MiniKafkaContainer;
import io.minibroker.testkit.container.MiniKafkaControls;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The test controls of a broker in Docker, through {@link MiniKafkaControls}, as a Testcontainers user has them. */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class MiniKafkaControlsTest {

    @BeforeEach
    void needsDocker() {
        DockerImages.assumeDocker();
    }

    @Test
    void aProducerRidesThroughErrorsInjectedInTheContainerAndTheLogSeesThem() throws Exception {
        try (MiniKafkaContainer kafka = MiniKafkaControls.enable(new MiniKafkaContainer(DockerImages.broker()), 1)) {
            kafka.start();
            Controls controls = MiniKafkaControls.of(kafka);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                    kafka.getBootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("boxed", 1, (short) 1))).all().get();
            }
            controls.requestLog().start();
            controls.inject(ErrorRule.answer(RequestMatch.api(ApiKey.PRODUCE).topic("boxed"),
                    Errors.NOT_ENOUGH_REPLICAS).times(2));
            try (KafkaProducer<String, String> producer = Clients.producer(kafka.getBootstrapServers())) {
                assertThat(producer.send(new ProducerRecord<>("boxed", "v")).get().offset()).isZero();
            }
            LoggedRequest refused = controls.requestLog().awaitAnswer(RequestMatch.api(ApiKey.PRODUCE),
                    Errors.NOT_ENOUGH_REPLICAS, Duration.ofSeconds(10)).orElseThrow();
            assertThat(refused.facts().topics()).containsKey("boxed");
            assertThat(controls.errorRules()).isEmpty();
            controls.reset();
        }
    }
}
