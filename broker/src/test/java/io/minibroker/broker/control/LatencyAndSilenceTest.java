package io.minibroker.broker.control;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Latency, a hung broker, closed and refused connections, as kafka-clients 4.4.0 sees them. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LatencyAndSilenceTest {

    private static final String TOPIC = "slow";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private EmbeddedBroker broker;
    private BrokerControls controls;

    @BeforeEach
    void start() throws Exception {
        broker = EmbeddedBroker.start();
        controls = broker.controls();
        Clients.createTopic(broker, TOPIC, 1);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void injectedRoundTripShowsInTheProducersRequestLatency() throws Exception {
        long delayMs = 300;
        try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
            producer.send(new ProducerRecord<>(TOPIC, "warm-up")).get(); // metadata and producer id first
            controls.delay(ApiKey.PRODUCE, delayMs);
            producer.send(new ProducerRecord<>(TOPIC, "late")).get();
            // The sender records a response's latency after completing its batches: once a later send completes,
            // the sender thread has recorded the delayed one.
            controls.clearDelays();
            producer.send(new ProducerRecord<>(TOPIC, "on time")).get();
            assertThat(metric(producer.metrics(), "producer-metrics", "request-latency-max"))
                    .isGreaterThanOrEqualTo(delayMs);
        }
    }

    @Test
    void aWholeBrokerDelayHoldsEveryApi() throws Exception {
        controls.delayAll(250);
        controls.requestLog().start();
        try (Admin admin = Clients.admin(broker, Map.of())) {
            admin.describeCluster().clusterId().get();
        }
        LoggedRequest describe = controls.requestLog().await(RequestMatch.api(ApiKey.DESCRIBE_CLUSTER), WAIT)
                .orElseThrow();
        assertThat(describe.facts().api()).isEqualTo(ApiKey.DESCRIBE_CLUSTER);
        controls.clearDelays();
        assertThat(controls.engaged()).as("the log alone keeps the controls engaged").isTrue();
        controls.requestLog().stop();
        assertThat(controls.engaged()).isFalse();
    }

    @Test
    void aHungBrokerReadsButAnswersNothingUntilResumed() throws Exception {
        controls.requestLog().start();
        try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
            producer.send(new ProducerRecord<>(TOPIC, "before")).get();
            controls.hang();
            Future<RecordMetadata> held = producer.send(new ProducerRecord<>(TOPIC, "during"));
            LoggedRequest produce = controls.requestLog().await(logged -> logged.facts().api() == ApiKey.PRODUCE
                    && !logged.answered(), WAIT).orElseThrow();
            assertThat(held).isNotDone();
            controls.resume();
            assertThat(held.get().offset()).isEqualTo(1);
            assertThat(produce.answered()).isTrue();
        }
    }

    @Test
    void closedConnectionsReconnectAndRefusedOnesFailUntilAllowed() throws Exception {
        try (Admin admin = Clients.admin(broker, Map.of())) {
            String clusterId = admin.describeCluster().clusterId().get();
            controls.closeConnections();
            assertThat(admin.describeCluster().clusterId().get()).isEqualTo(clusterId);
        }
        controls.refuseConnections(true);
        try (Admin refused = Clients.admin(broker, Map.of(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 2_000,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 1_000))) {
            assertThatThrownBy(() -> refused.describeCluster().clusterId().get())
                    .isInstanceOf(ExecutionException.class);
            controls.refuseConnections(false);
            assertThat(refused.describeCluster().clusterId().get(WAIT.toSeconds(), TimeUnit.SECONDS)).isNotEmpty();
        }
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String group, String name) {
        return metrics.entrySet().stream()
                .filter(e -> e.getKey().group().equals(group) && e.getKey().name().equals(name))
                .map(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .findFirst().orElseThrow();
    }
}
