package io.minibroker.broker.quota;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Kafka's client quota metrics of a broker on a manual clock, read from its registry after driving a throttle: the
 * Produce {@code byte-rate} and {@code throttle-time} of each client (one without a quota of its own too, under the
 * tags Kafka gives it), none before a quota of the kind is set, the Request metrics, and the ControllerMutation
 * {@code mutation-rate} and {@code throttle-time}; all gone once their client has been idle for an hour; and each
 * kind's {@code queue-size} while a connection is muted for its throttle.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ClientQuotaMetricsTest {

    private static final String BYTE_RATE = "kafka.server.produce.byte.rate";
    private static final String PRODUCE_THROTTLE_TIME = "kafka.server.produce.throttle.time";

    @TempDir
    Path logDir;

    private static Gauge gauge(MeterRegistry registry, String name, String user, String clientId) {
        return registry.find(name).tag("user", user).tag("client-id", clientId).gauge();
    }

    @Test
    void produceByteRateAndThrottleTimeReadAsKafkasForEveryClientOnceAQuotaIsSet() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock)) {
            MeterRegistry registry = broker.meterRegistry();
            try (RawClient early = new RawClient(broker.boundPort("PLAINTEXT"))) {
                MeteredTopic.create(broker, "someone-else", QuotaConfig.CONSUMER_BYTE_RATE, 1.0);
                early.send(MeteredTopic.produceRequest("early", new byte[100]));
                early.receive(ApiKey.PRODUCE, MeteredTopic.PRODUCE_V9);
            }
            assertThat(registry.find(BYTE_RATE).gauges()).as("no producer_byte_rate set: nothing recorded").isEmpty();

            try (Admin admin = TestBrokers.admin(broker)) {
                admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                        new ClientQuotaEntity(Map.of("client-id", "metered-producer")),
                        List.of(new ClientQuotaAlteration.Op(QuotaConfig.PRODUCER_BYTE_RATE, 1000.0))))).all().get();
            }
            byte[] request = MeteredTopic.produceRequest("metered-producer", new byte[15_000]);
            int requestBytes = request.length - 4;
            int throttleMs = requestBytes - 10_000; // as ProduceThrottleTest works it out
            byte[] unmetered = MeteredTopic.produceRequest("unmetered", new byte[5_000]);
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"));
                 RawClient other = new RawClient(broker.boundPort("PLAINTEXT"))) {
                client.send(request);
                assertThat(client.receive(ApiKey.PRODUCE, MeteredTopic.PRODUCE_V9).body().getInt32("ThrottleTimeMs"))
                        .isEqualTo(throttleMs);
                assertThat(queueSize(registry, "produce")).as("muted from the answer on").isOne();
                assertThat(queueSize(registry, "request")).isZero();
                other.send(unmetered);
                other.receive(ApiKey.PRODUCE, MeteredTopic.PRODUCE_V9);
            }
            // Kafka's Rate over 11 windows of 1 s, measured over at least 10: the bytes / 10 s.
            assertThat(gauge(registry, BYTE_RATE, "", "metered-producer").value()).isEqualTo(requestBytes / 10.0);
            assertThat(gauge(registry, PRODUCE_THROTTLE_TIME, "", "metered-producer").value()).isEqualTo(throttleMs);
            assertThat(gauge(registry, BYTE_RATE, "", "unmetered").value())
                    .as("a client id without a quota, under Kafka's tags for it")
                    .isEqualTo((unmetered.length - 4) / 10.0);
            assertThat(gauge(registry, PRODUCE_THROTTLE_TIME, "", "unmetered").value())
                    .as("never throttled: Kafka's Avg of nothing").isNaN();
            assertThat(registry.find("kafka.server.fetch.byte.rate").gauges()).as("no consumer fetched").isEmpty();
            assertThat(registry.find("kafka.server.request.request.time").gauges()).as("no request quota").isEmpty();
            assertThat(registry.find("kafka.server.request.exempt.request.time").gauge().value()).isZero();

            clock.advance(30_000);
            await(() -> queueSize(registry, "produce") == 0, "the throttle to end");
            assertThat(gauge(registry, PRODUCE_THROTTLE_TIME, "", "metered-producer").value())
                    .as("still in the second of the metrics' two 30 s windows").isEqualTo(throttleMs);
            clock.advance(30_000);
            assertThat(gauge(registry, PRODUCE_THROTTLE_TIME, "", "metered-producer").value())
                    .as("out of both windows").isNaN();
            assertThat(gauge(registry, BYTE_RATE, "", "metered-producer").value()).isZero();

            clock.advance(TimeUnit.HOURS.toMillis(1));
            assertThat(registry.find(BYTE_RATE).gauges()).as("idle for an hour: Kafka's sensors expired").isEmpty();
            assertThat(registry.find(PRODUCE_THROTTLE_TIME).gauges()).isEmpty();
        }
    }

    @Test
    void requestTimeAndItsThrottleTimeAreTheRequestQuotas() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock);
             Admin admin = TestBrokers.admin(broker)) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of("user", "ANONYMOUS")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.REQUEST_PERCENTAGE, 0.001))))).all().get();
            MeterRegistry registry = broker.meterRegistry();
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                client.send(RawClient.apiVersions((short) 3, 1));
                client.receive(ApiKey.API_VERSIONS, (short) 3);
            }
            // The handlers take no time on a manual clock: a rate of 0 %, no throttle; a user quota's tags.
            assertThat(gauge(registry, "kafka.server.request.request.time", "ANONYMOUS", "").value()).isZero();
            assertThat(gauge(registry, "kafka.server.request.throttle.time", "ANONYMOUS", "").value()).isNaN();
            assertThat(registry.find("kafka.server.request.exempt.request.time").gauge().value()).isZero();
        }
    }

    @Test
    void controllerMutationRateAndThrottleTimeAreTheMutationQuotas() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of("controller.quota.window.num", "2"), clock);
             Admin mutator = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     "localhost:" + broker.boundPort("PLAINTEXT"), AdminClientConfig.CLIENT_ID_CONFIG, "mutator"))) {
            mutator.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "mutator")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 10.0))))).all().get();
            CreateTopicsOptions noRetry = new CreateTopicsOptions().retryOnQuotaViolation(false);
            mutator.createTopics(List.of(new NewTopic("a", 21, (short) 1)), noRetry).all().get();
            assertThatThrownBy(() -> mutator.createTopics(List.of(new NewTopic("b", 1, (short) 1)), noRetry).all()
                    .get()).hasMessageContaining("ThrottlingQuotaExceeded");

            MeterRegistry registry = broker.meterRegistry();
            // Kafka's Rate over the metrics' default 2 windows of 30 s, measured over at least one: 21 / 30 s.
            assertThat(gauge(registry, "kafka.server.controllermutation.mutation.rate", "", "mutator").value())
                    .isEqualTo(21 / 30.0);
            assertThat(gauge(registry, "kafka.server.controllermutation.throttle.time", "", "mutator").value())
                    .as("the refused request's 100 ms").isEqualTo(100.0);
            assertThat(queueSize(registry, "controllermutation")).as("muted for it").isOne();
            clock.advance(100);
            await(() -> queueSize(registry, "controllermutation") == 0, "the throttle to end");
        }
    }

    /** Kafka's {@code kafka.server:type=<type>} {@code queue-size}: the connections muted for that kind's throttles. */
    private static double queueSize(MeterRegistry registry, String type) {
        return registry.get("kafka.server." + type + ".queue.size").gauge().value();
    }

    /**
     * As Kafka's ControllerMutationQuotaManager, which gives every client a quota sensor once a
     * {@code controller_mutation_rate} is set for anyone: a client without one of its own has its mutation-rate too,
     * under the tags Kafka's callback gives it (a client-id quota is set: {@code user=""}), and is never throttled;
     * before any is set, no client's is recorded.
     */
    @Test
    void everyClientsMutationRateIsRecordedOnceAControllerMutationRateIsSetForAnyone() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock);
             Admin other = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     "localhost:" + broker.boundPort("PLAINTEXT"), AdminClientConfig.CLIENT_ID_CONFIG, "other"))) {
            MeterRegistry registry = broker.meterRegistry();
            other.createTopics(List.of(new NewTopic("before", 4, (short) 1))).all().get();
            assertThat(registry.find("kafka.server.controllermutation.mutation.rate").gauges())
                    .as("no controller_mutation_rate set: nothing recorded").isEmpty();

            other.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "mutator")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 1.0))))).all().get();
            other.createTopics(List.of(new NewTopic("a", 30, (short) 1))).all().get();
            other.createPartitions(Map.of("a", org.apache.kafka.clients.admin.NewPartitions.increaseTo(33))).all()
                    .get();
            other.deleteTopics(List.of("before")).all().get();
            // Kafka's Rate over the metrics' default 2 windows of 30 s: 30 + 3 + 4 partitions in 30 s.
            assertThat(gauge(registry, "kafka.server.controllermutation.mutation.rate", "", "other").value())
                    .isEqualTo(37 / 30.0);
            assertThat(gauge(registry, "kafka.server.controllermutation.throttle.time", "", "other").value())
                    .as("never throttled").isNaN();
        }
    }
}
