package io.minibroker.broker.control;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The same Java API over HTTP: every {@link Controls} operation through {@link HttpControls}, its effect checked. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class HttpControlsTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock();
    private EmbeddedBroker broker;
    private BrokerControls local;
    private Controls remote;

    @BeforeEach
    void start() throws Exception {
        broker = EmbeddedBroker.start(Map.of("minibroker.controls.port", "0"), clock);
        local = broker.controls();
        remote = HttpControls.at("127.0.0.1", broker.broker().controlsAddress().getPort());
        Clients.createTopic(broker, "remote", 1);
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void errorRules() throws Exception {
        long id = remote.inject(ErrorRule.answer(RequestMatch.api(ApiKey.PRODUCE).topic("remote").partition(0)
                .clientId("c"), Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND).afterServing().times(3));
        assertThat(remote.errorRules()).isEqualTo(local.errorRules()).singleElement()
                .satisfies(rule -> assertThat(rule.id()).isEqualTo(id));
        assertThat(remote.removeErrorRule(id)).isTrue();
        assertThat(remote.removeErrorRule(id)).isFalse();
        remote.failNext(ApiKey.DESCRIBE_CLUSTER, Errors.CLUSTER_AUTHORIZATION_FAILED, 1);
        try (Admin admin = Clients.admin(broker, Map.of())) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
        remote.inject(ErrorRule.answer(RequestMatch.api(ApiKey.FETCH), Errors.NOT_LEADER_OR_FOLLOWER).always());
        remote.clearErrorRules();
        assertThat(local.errorRules()).isEmpty();
        assertThatThrownBy(() -> remote.failNext(ApiKey.CREATE_TOPICS, Errors.NOT_CONTROLLER, 1))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after serving");
    }

    @Test
    void latencySilenceAndConnections() {
        remote.delay(ApiKey.FETCH, 100);
        assertThat(local.engaged()).isTrue();
        remote.delay(ApiKey.FETCH, 0);
        assertThat(local.engaged()).isFalse();
        remote.delayAll(50);
        assertThat(local.engaged()).isTrue();
        remote.clearDelays();
        assertThat(local.engaged()).isFalse();
        remote.hang();
        assertThat(remote.hung()).isTrue();
        remote.resume();
        assertThat(local.hung()).isFalse();
        remote.refuseConnections(true);
        remote.closeConnections();
        remote.refuseConnections(false);
    }

    @Test
    void versionsRequestLogClockAndReset() throws Exception {
        remote.capVersion(ApiKey.PRODUCE, 9);
        remote.requestLog().start();
        assertThat(remote.requestLog().recording()).isTrue();
        try (KafkaProducer<String, String> producer = Clients.producer(broker,
                Map.of(ProducerConfig.CLIENT_ID_CONFIG, "far"))) {
            producer.send(new ProducerRecord<>("remote", "v")).get();
        }
        LoggedRequest produce = remote.requestLog().await(RequestMatch.api(ApiKey.PRODUCE).topic("remote")
                .partition(0).clientId("far"), WAIT).orElseThrow();
        assertThat(produce.facts().version()).isEqualTo((short) 9);
        assertThat(remote.requestLog().find(RequestMatch.api(ApiKey.PRODUCE).clientId("far")))
                .extracting(logged -> logged.facts().correlationId())
                .contains(produce.facts().correlationId());
        assertThat(remote.requestLog().awaitAnswer(RequestMatch.api(ApiKey.PRODUCE), Errors.NOT_CONTROLLER,
                Duration.ofMillis(10))).isEmpty();
        remote.clearVersionCaps();
        remote.requestLog().stop();
        remote.requestLog().clear();
        assertThat(local.requestLog().find(RequestMatch.any())).isEmpty();

        assertThat(remote.clockIsManual()).isTrue();
        long before = clock.nowMs();
        remote.advanceClock(Duration.ofMinutes(1));
        assertThat(clock.nowMs()).isEqualTo(before + 60_000);

        assertThatThrownBy(() -> remote.moveLeader("remote", 0, 1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("controller");
        assertThatThrownBy(() -> remote.moveGroupCoordinator("g", 1)).isInstanceOf(IllegalStateException.class);
        remote.hang();
        remote.reset();
        assertThat(local.engaged()).isFalse();
    }
}
