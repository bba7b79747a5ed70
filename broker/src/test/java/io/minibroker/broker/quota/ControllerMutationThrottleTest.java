package io.minibroker.broker.quota;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.MetadataRequestView;
import io.minibroker.protocol.message.view.MetadataResponseView;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DeleteTopicsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.ThrottlingQuotaExceededException;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * kafka-clients 4.4's Admin under a {@code controller_mutation_rate} of 10 partitions a second (2 windows of 1 s: a
 * burst of 20), on the broker's manual clock: a first CreateTopics of 21 partitions goes through and empties the
 * bucket to -1; until the clock has refilled it the next CreateTopics, DeleteTopics or CreatePartitions is refused
 * THROTTLING_QUOTA_EXCEEDED with the time left (an Admin told not to retry sees it), and each change goes through once
 * it has; a client id without the quota is never throttled.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControllerMutationThrottleTest {

    private static final CreateTopicsOptions NO_RETRY = new CreateTopicsOptions().retryOnQuotaViolation(false);

    @TempDir
    Path logDir;

    private static Admin admin(Broker broker, String clientId) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "localhost:" + broker.boundPort("PLAINTEXT"), AdminClientConfig.CLIENT_ID_CONFIG, clientId));
    }

    private static int refusedThrottleMs(Runnable change) {
        ThrottlingQuotaExceededException[] caught = new ThrottlingQuotaExceededException[1];
        assertThatThrownBy(change::run).hasCauseInstanceOf(ThrottlingQuotaExceededException.class)
                .satisfies(e -> caught[0] = (ThrottlingQuotaExceededException) e.getCause());
        return caught[0].throttleTimeMs();
    }

    private static void get(org.apache.kafka.common.KafkaFuture<Void> future) {
        try {
            future.get();
        } catch (ExecutionException e) {
            throw new RuntimeException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Test
    void changesOverTheRateAreRefusedUntilTheBucketRefills() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of("controller.quota.window.num", "2"), clock);
             Admin mutator = admin(broker, "mutator"); Admin other = admin(broker, "other")) {
            other.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "mutator")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 10.0))))).all().get();

            mutator.createTopics(List.of(new NewTopic("a", 21, (short) 1)), NO_RETRY).all().get();
            assertThat(refusedThrottleMs(() -> get(mutator.createTopics(List.of(new NewTopic("b", 1, (short) 1)),
                    NO_RETRY).all()))).as("one token short at 10 a second").isEqualTo(100);
            other.createTopics(List.of(new NewTopic("c", 30, (short) 1))).all().get();

            clock.advance(100);
            mutator.createTopics(List.of(new NewTopic("b", 1, (short) 1)), NO_RETRY).all().get();
            assertThat(refusedThrottleMs(() -> get(mutator.deleteTopics(List.of("a"),
                    new DeleteTopicsOptions().retryOnQuotaViolation(false)).all()))).isEqualTo(100);
            assertThat(other.listTopics().names().get()).contains("a", "b", "c");

            clock.advance(100);
            mutator.deleteTopics(List.of("a"), new DeleteTopicsOptions().retryOnQuotaViolation(false)).all().get();
            assertThat(refusedThrottleMs(() -> get(mutator.createPartitions(Map.of("b", NewPartitions.increaseTo(3)),
                    new CreatePartitionsOptions().retryOnQuotaViolation(false)).all())))
                    .as("the 21 partitions deleted: 2.1 s to refill").isEqualTo(2100);
            assertThat(other.describeTopics(Set.of("b")).allTopicNames().get().get("b").partitions()).hasSize(1);

            clock.advance(2100);
            mutator.createPartitions(Map.of("b", NewPartitions.increaseTo(3))).all().get();
            assertThat(other.describeTopics(Set.of("b")).allTopicNames().get().get("b").partitions()).hasSize(3);
            assertThat(other.listTopics().names().get()).containsExactlyInAnyOrder("b", "c");
        }
    }
    /**
     * As Kafka's broker, which forwards a Metadata request's auto-creations to its controller as the client's
     * CreateTopics (its single combined node too), a topic a Metadata request creates counts against the client's
     * quota: over it, the topic is not created and stays unknown; once the bucket refilled, the client's next Metadata
     * creates it and takes its partition from the bucket, so the client's next CreateTopics waits again.
     */
    @Test
    void aTopicAutoCreatedByMetadataCountsAgainstTheClientsQuota() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of("controller.quota.window.num", "2"), clock);
             Admin mutator = admin(broker, "mutator"); Admin other = admin(broker, "other");
             NodeChannel asMutator = new NodeChannel("localhost", broker.boundPort("PLAINTEXT"), "mutator", 30_000)) {
            other.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of(ClientQuotaEntity.CLIENT_ID, "mutator")),
                    List.of(new ClientQuotaAlteration.Op(QuotaConfig.CONTROLLER_MUTATION_RATE, 10.0))))).all().get();
            mutator.createTopics(List.of(new NewTopic("a", 21, (short) 1)), NO_RETRY).all().get();

            assertThat(autoCreatingMetadata(asMutator, "wanted")).as("one token short")
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            assertThat(other.listTopics().names().get()).doesNotContain("wanted");

            clock.advance(100);
            assertThat(autoCreatingMetadata(asMutator, "wanted")).as("created, answered as Kafka while it creates")
                    .isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
            assertThat(other.listTopics().names().get()).contains("wanted");
            assertThat(autoCreatingMetadata(asMutator, "wanted")).isEqualTo(Errors.NONE);
            assertThat(refusedThrottleMs(() -> get(mutator.createTopics(List.of(new NewTopic("b", 1, (short) 1)),
                    NO_RETRY).all()))).as("the auto-created topic's partition taken").isEqualTo(100);
        }
    }

    /** The error a Metadata v12 allowing auto-creation answers for {@code topic}. */
    private static Errors autoCreatingMetadata(NodeChannel node, String topic) throws Exception {
        MetadataRequestView request = new MetadataRequestView().allowAutoTopicCreation(true);
        request.addTopic().name(topic);
        return Errors.forCode(new MetadataResponseView(node.send(ApiKey.METADATA, (short) 12, request.struct()))
                .topics().get(0).errorCode());
    }
}
