package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
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
 * ManualClock: a refused one is kept and not asked for again until its period is over, as Kafka's back-off.
 */
class LocalTopicAutoCreationTest {

    private static final long PERIOD_MS = 10_000;
    private static final String TOO_FEW_BROKERS = "Unable to replicate the partition 3 time(s): The target "
            + "replication factor of 3 cannot be reached because only 1 broker(s) are registered.";

    @TempDir
    Path logDir;
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
        creation = new LocalTopicAutoCreation(topics, counted, new TopicCreationErrors(clock::nowMs));
    }

    @AfterEach
    void close() throws IOException {
        topics.close();
    }

    @Test
    void aRefusedInternalTopicIsNotAskedForAgainUntilItsRefusalExpires() {
        AutoCreatedTopic threeReplicas = new AutoCreatedTopic("app-changelog", 1, (short) 3, Map.of());
        creation.createAsDecided(List.of(threeReplicas), PERIOD_MS);
        assertThat(creations).hasValue(1);
        assertThat(creation.creationErrors(List.of("app-changelog", "app-repartition")))
                .isEqualTo(Map.of("app-changelog", TOO_FEW_BROKERS));

        clock.advance(PERIOD_MS - 1);
        creation.createAsDecided(List.of(threeReplicas), PERIOD_MS);
        assertThat(creations).as("held back while the refusal is kept").hasValue(1);

        clock.advance(1);
        assertThat(creation.creationErrors(List.of("app-changelog"))).isEmpty();
        creation.createAsDecided(List.of(threeReplicas), PERIOD_MS);
        assertThat(creations).as("asked again once it expired").hasValue(2);
        assertThat(creation.creationErrors(List.of("app-changelog"))).containsKey("app-changelog");
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
