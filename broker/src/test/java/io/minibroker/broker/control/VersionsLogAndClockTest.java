package io.minibroker.broker.control;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Version caps, the request log and the manual clock, through the Java controls, with kafka-clients 4.4.0. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VersionsLogAndClockTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    @Test
    void aCappedProduceVersionMakesTheProducerUseTheOlderVersion() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            Clients.createTopic(broker, "old", 1);
            BrokerControls controls = broker.controls();
            controls.capVersion(ApiKey.PRODUCE, 9);
            controls.requestLog().start();
            try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
                producer.send(new ProducerRecord<>("old", "v")).get();
            }
            List<LoggedRequest> produces = controls.requestLog().find(RequestMatch.api(ApiKey.PRODUCE));
            assertThat(produces).isNotEmpty().allSatisfy(logged -> assertThat(logged.facts().version()).isEqualTo((short) 9));
            controls.clearVersionCaps();
            controls.requestLog().clear();
            try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
                producer.send(new ProducerRecord<>("old", "v")).get();
            }
            assertThat(controls.requestLog().find(RequestMatch.api(ApiKey.PRODUCE)))
                    .allSatisfy(logged -> assertThat(logged.facts().version()).isGreaterThan((short) 9));
            assertThatThrownBy(() -> controls.capVersion(ApiKey.PRODUCE, -1))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void theRequestLogSeesAConsumersOffsetCommit() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            Clients.createTopic(broker, "commits", 4);
            BrokerControls controls = broker.controls();
            controls.requestLog().start();
            try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
                producer.send(new ProducerRecord<>("commits", 3, null, "x")).get();
            }
            try (KafkaConsumer<String, String> consumer = Clients.consumer(broker, "committers",
                    Map.of(ConsumerConfig.CLIENT_ID_CONFIG, "committer"))) {
                consumer.subscribe(List.of("commits"));
                assertThat(Clients.consume(consumer, 1, WAIT)).containsExactly("x");
                consumer.commitAsync();
                LoggedRequest commit = controls.requestLog().await(RequestMatch.api(ApiKey.OFFSET_COMMIT)
                        .group("committers").topic("commits").partition(3), WAIT).orElseThrow();
                assertThat(commit.facts().clientId()).isEqualTo("committer");
                assertThat(commit.arrivalMs()).isPositive();
            }
        }
    }

    @Test
    void theRequestLogNamesTheGroupAndPartitionsOfATransactionsOffsets() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            Clients.createTopic(broker, "consumed", 2);
            BrokerControls controls = broker.controls();
            controls.requestLog().start();
            try (KafkaProducer<String, String> producer = Clients.producer(broker,
                    Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "offsets-in-a-transaction"))) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.sendOffsetsToTransaction(Map.of(new TopicPartition("consumed", 1), new OffsetAndMetadata(5)),
                        new ConsumerGroupMetadata("transactional-readers"));
                producer.commitTransaction();
            }
            assertThat(controls.requestLog().find(RequestMatch.api(ApiKey.TXN_OFFSET_COMMIT)
                    .group("transactional-readers").topic("consumed").partition(1))).hasSize(1);
        }
    }

    @Test
    void aSessionExpiresWhenTheControlsAdvanceTheClock() throws Exception {
        ManualClock clock = new ManualClock();
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of(), clock)) {
            Clients.createTopic(broker, "sessions", 1);
            BrokerControls controls = broker.controls();
            assertThat(controls.clockIsManual()).isTrue();
            controls.requestLog().start();
            int sessionMs = 10_000;
            try (KafkaConsumer<String, String> consumer = Clients.consumer(broker, "sleepy",
                    Map.of(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, sessionMs,
                            ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 200))) {
                consumer.subscribe(List.of("sessions"));
                RequestMatch sleepy = RequestMatch.any().group("sleepy");
                // Joined: a heartbeat answered without error means the member is in a stable group.
                while (consumer.assignment().isEmpty()) {
                    consumer.poll(Duration.ofMillis(100));
                }
                controls.requestLog().await(logged -> sleepy.andApi(ApiKey.HEARTBEAT).matches(logged.facts())
                        && logged.answered() && logged.errors().isEmpty(), WAIT).orElseThrow();
                controls.advanceClock(Duration.ofMillis(sessionMs + 1));
                assertThat(controls.requestLog().awaitAnswer(sleepy.andApi(ApiKey.HEARTBEAT),
                        Errors.UNKNOWN_MEMBER_ID, WAIT)).as("the member's session expired at the advance").isPresent();
            }
        }
    }
}
