package io.minibroker.broker.topic;

import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.ControllerMutationQuotas;
import io.minibroker.broker.quota.QuotaConfig;
import io.minibroker.broker.quota.QuotaEntity;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A single node's creation of a streams group's internal topics, run in the caller's thread and time driven by a
 * ManualClock: a refused one is kept and not asked for again until its period is over, as Kafka's back-off; they
 * count against the member's controller_mutation_rate.
 */
class LocalTopicAutoCreationTest {

    private static final long PERIOD_MS = 10_000;
    private static final String TOO_FEW_BROKERS = "Unable to replicate the partition 3 time(s): The target "
            + "replication factor of 3 cannot be reached because only 1 broker(s) are registered.";

    @TempDir
    Path logDir;
    @TempDir
    Path quotaDir;
    private final ManualClock clock = new ManualClock();
    private final AtomicInteger creations = new AtomicInteger();
    private TopicRegistry topics;
    private LocalTopicAutoCreation creation;

    @BeforeEach
    void open() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        Executor counted = task -> {
            creations.incrementAndGet();
            task.run();
        };
        ClientQuotas quotas = ClientQuotas.open(quotaDir);
        quotas.alter(Map.of(QuotaEntity.of(QuotaEntity.CLIENT_ID, "app-1"),
                Map.of(QuotaConfig.CONTROLLER_MUTATION_RATE, 1.0)));
        ControllerMutationQuotas mutationQuotas = new ControllerMutationQuotas(quotas, clock::nowMs, 2, 1);
        creation = new LocalTopicAutoCreation(topics, counted, new TopicCreationErrors(clock::nowMs),
                client -> mutationQuotas.newQuotaForCreationsOf(client.principalName(), client.clientId())::record);
    }

    /** A streams member's heartbeat from client id {@code clientId}. */
    private static RequestingClient member(String clientId) {
        return new RequestingClient(TestContexts.on("PLAINTEXT"),
                new RequestHeader(ApiKey.STREAMS_GROUP_HEARTBEAT.id(), (short) 0, 7, clientId));
    }

    @AfterEach
    void close() throws IOException {
        topics.close();
    }

    @Test
    void aRefusedInternalTopicIsNotAskedForAgainUntilItsRefusalExpires() {
        AutoCreatedTopic threeReplicas = new AutoCreatedTopic("app-changelog", 1, (short) 3, Map.of());
        creation.createAsDecided(List.of(threeReplicas), PERIOD_MS, member("other"));
        assertThat(creations).hasValue(1);
        assertThat(creation.creationErrors(List.of("app-changelog", "app-repartition")))
                .isEqualTo(Map.of("app-changelog", TOO_FEW_BROKERS));

        clock.advance(PERIOD_MS - 1);
        creation.createAsDecided(List.of(threeReplicas), PERIOD_MS, member("other"));
        assertThat(creations).as("held back while the refusal is kept").hasValue(1);

        clock.advance(1);
        assertThat(creation.creationErrors(List.of("app-changelog"))).isEmpty();
        creation.createAsDecided(List.of(threeReplicas), PERIOD_MS, member("other"));
        assertThat(creations).as("asked again once it expired").hasValue(2);
        assertThat(creation.creationErrors(List.of("app-changelog"))).containsKey("app-changelog");
    }

    /**
     * As Kafka's controller counts the CreateTopics its broker sends as the member's: the member's
     * controller_mutation_rate (here 1 partition a second, a burst of 2) refuses a topic once spent,
     * THROTTLING_QUOTA_EXCEEDED kept as any refusal; another client id is not held back.
     */
    @Test
    void internalTopicsCountAgainstTheMembersControllerMutationRate() {
        AutoCreatedTopic repartition = new AutoCreatedTopic("app-repartition", 3, (short) 1, Map.of());
        AutoCreatedTopic changelog = new AutoCreatedTopic("app-changelog", 3, (short) 1, Map.of());
        creation.createAsDecided(List.of(repartition, changelog), PERIOD_MS, member("app-1"));

        assertThat(topics.get("app-repartition")).as("taken with the bucket full, which it leaves at -1").isPresent();
        assertThat(topics.get("app-changelog")).isEmpty();
        assertThat(creation.creationErrors(List.of("app-changelog")))
                .isEqualTo(Map.of("app-changelog", "The throttling quota has been exceeded."));

        creation.createAsDecided(List.of(new AutoCreatedTopic("other-changelog", 3, (short) 1, Map.of())),
                PERIOD_MS, member("other"));
        assertThat(topics.get("other-changelog")).isPresent();
    }

    @Test
    void aTopicCreatedOnAClientsAccountKeepsNoRefusal() {
        // Kafka keeps refusals only of the streams internal topics; Metadata's auto-creation is asked again at once.
        creation.create(List.of("bad/name"));
        creation.create(List.of("bad/name"));
        assertThat(creations).hasValue(2);
        assertThat(creation.creationErrors(List.of("bad/name"))).isEmpty();
    }
}
