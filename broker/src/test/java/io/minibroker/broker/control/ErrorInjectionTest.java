package io.minibroker.broker.control;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Injected errors as kafka-clients 4.4.0 meets them: an idempotent producer rides through them, nothing lost or doubled. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ErrorInjectionTest {

    private static final String TOPIC = "orders";
    private static final Duration WAIT = Duration.ofSeconds(30);

    private EmbeddedBroker broker;
    private BrokerControls controls;

    @BeforeEach
    void start() throws Exception {
        broker = EmbeddedBroker.start();
        controls = broker.controls();
        Clients.createTopic(broker, TOPIC, 2);
        controls.requestLog().start();
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    @Test
    void idempotentProducerRidesThroughNotLeaderAndNotEnoughReplicasWithoutLossOrDuplicates() throws Exception {
        RequestMatch partition0 = RequestMatch.api(ApiKey.PRODUCE).topic(TOPIC).partition(0);
        // A stack on partition 0, answered in turn: twice "not the leader", twice "not enough replicas", then once
        // written and still refused (the retry must not write the batch a second time).
        controls.inject(ErrorRule.answer(partition0, Errors.NOT_LEADER_OR_FOLLOWER).times(2));
        controls.inject(ErrorRule.answer(partition0, Errors.NOT_ENOUGH_REPLICAS).times(2));
        controls.inject(ErrorRule.answer(partition0, Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND).afterServing());
        int count = 200;
        try (KafkaProducer<String, String> producer = Clients.producer(broker,
                Map.of(ProducerConfig.LINGER_MS_CONFIG, 5))) {
            List<Future<?>> sent = IntStream.range(0, count)
                    .<Future<?>>mapToObj(i -> producer.send(new ProducerRecord<>(TOPIC, 0, null, "v" + i)))
                    .toList();
            for (Future<?> each : sent) {
                each.get();
            }
        }
        assertThat(controls.errorRules()).as("every injected error was answered").isEmpty();
        for (Errors injected : List.of(Errors.NOT_LEADER_OR_FOLLOWER, Errors.NOT_ENOUGH_REPLICAS,
                Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND)) {
            assertThat(controls.requestLog().find(logged -> logged.errors().contains(injected))).isNotEmpty();
        }
        try (KafkaConsumer<String, String> consumer = Clients.consumer(broker, "check", Map.of())) {
            consumer.subscribe(List.of(TOPIC));
            assertThat(Clients.consume(consumer, count, WAIT))
                    .containsExactlyElementsOf(IntStream.range(0, count).mapToObj(i -> "v" + i).toList());
            // a record written twice would be one past them: the log's end says so without waiting for it
            TopicPartition written = new TopicPartition(TOPIC, 0);
            assertThat(consumer.endOffsets(List.of(written))).containsEntry(written, (long) count);
        }
    }

    @Test
    void topLevelErrorReachesTheAdminClientAndTheRuleIsSpentAfterItsCount() throws Exception {
        controls.failNext(ApiKey.DESCRIBE_CLUSTER, Errors.CLUSTER_AUTHORIZATION_FAILED, 1);
        try (Admin admin = Clients.admin(broker, Map.of())) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
            assertThat(admin.describeCluster().clusterId().get()).isNotEmpty();
        }
    }

    @Test
    void ruleUntilRemovedFiresUntilRemovedAndOnlyForItsClient() throws Exception {
        long id = controls.inject(ErrorRule.answer(RequestMatch.api(ApiKey.DESCRIBE_CLUSTER).clientId("victim"),
                Errors.CLUSTER_AUTHORIZATION_FAILED).always());
        try (Admin victim = Clients.admin(broker, Map.of("client.id", "victim"));
             Admin bystander = Clients.admin(broker, Map.of("client.id", "bystander"))) {
            for (int i = 0; i < 3; i++) {
                assertThatThrownBy(() -> victim.describeCluster().clusterId().get())
                        .hasCauseInstanceOf(ClusterAuthorizationException.class);
            }
            assertThat(bystander.describeCluster().clusterId().get()).isNotEmpty();
            assertThat(controls.removeErrorRule(id)).isTrue();
            assertThat(victim.describeCluster().clusterId().get()).isNotEmpty();
        }
    }

    @Test
    void consumerRidesThroughFetchErrorsInThePartitionShape() throws Exception {
        try (KafkaProducer<String, String> producer = Clients.producer(broker, Map.of())) {
            for (int i = 0; i < 10; i++) {
                producer.send(new ProducerRecord<>(TOPIC, 1, null, "f" + i)).get();
            }
        }
        controls.inject(ErrorRule.answer(RequestMatch.api(ApiKey.FETCH).topic(TOPIC),
                Errors.NOT_LEADER_OR_FOLLOWER).times(3));
        try (KafkaConsumer<String, String> consumer = Clients.consumer(broker, "fetchers", Map.of())) {
            consumer.subscribe(List.of(TOPIC));
            assertThat(Clients.consume(consumer, 10, WAIT)).hasSize(10);
        }
        assertThat(controls.requestLog().find(logged -> logged.facts().api() == ApiKey.FETCH
                && logged.errors().contains(Errors.NOT_LEADER_OR_FOLLOWER))).hasSize(3);
    }

    @Test
    void anApiWithoutATopLevelCodeTakesOnlyTheAfterServingFormWhichServesFirst() throws Exception {
        assertThatThrownBy(() -> controls.failNext(ApiKey.CREATE_TOPICS, Errors.TOPIC_AUTHORIZATION_FAILED, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after serving");
        controls.inject(ErrorRule.answer(RequestMatch.api(ApiKey.CREATE_TOPICS),
                Errors.TOPIC_AUTHORIZATION_FAILED).afterServing());
        try (Admin admin = Clients.admin(broker, Map.of())) {
            assertThatThrownBy(() -> admin.createTopics(List.of(new NewTopic("refused", 1, (short) 1))).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThat(admin.listTopics().names().get()).as("served before the error was written").contains("refused");
        }
    }
}
