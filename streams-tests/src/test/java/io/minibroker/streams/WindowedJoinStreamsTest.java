package io.minibroker.streams;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KTable;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka Streams 4.3 the way a heavy user runs it (../shared/seeds/kafka-streams-at-line.txt: windowed counts in
 * RocksDB stores, restored from changelogs): a stream-table join, a repartition by the joined value, and a
 * one-minute tumbling-window count, on two instances at once with a standby replica of each task. That takes
 * Streams' high-availability assignor through rebalances with two members, co-partitioning checks of the joined
 * topics, and a windowed changelog created with {@code cleanup.policy=compact,delete} and a retention.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class WindowedJoinStreamsTest {

    private static final String APPLICATION = "clicks-by-region";
    private static final String USERS = "users";
    private static final String CLICKS = "clicks";
    private static final String OUTPUT = "region-clicks";
    private static final String STORE = "region-counts";
    /**
     * The last minute boundary, so every click (a second apart, at most five seconds on) falls in the one window
     * that starts there; recent, so that no retention takes the records during the test.
     */
    private static final long WINDOW_START = System.currentTimeMillis() / 60_000 * 60_000;

    @TempDir
    Path logDir;
    @TempDir
    Path firstStateDir;
    @TempDir
    Path secondStateDir;

    @Test
    void twoInstancesWithStandbysCountJoinedClicksPerRegionAndWindow() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(USERS, 3, (short) 1), new NewTopic(CLICKS, 3, (short) 1),
                    new NewTopic(OUTPUT, 1, (short) 1))).all().get();
            try (KafkaProducer<String, String> producer = StreamsApps.producer(kafka.bootstrapServers())) {
                for (String[] user : new String[][]{{"ann", "north"}, {"bob", "south"}, {"cid", "north"}}) {
                    producer.send(new ProducerRecord<>(USERS, null, WINDOW_START, user[0], user[1])).get();
                }
            }

            try (KafkaStreams first = clicksByRegion(kafka.bootstrapServers(), firstStateDir);
                 KafkaStreams second = clicksByRegion(kafka.bootstrapServers(), secondStateDir)) {
                Object stateChanged = new Object();
                for (KafkaStreams instance : List.of(first, second)) {
                    // Called after the new state is set: a waiter that wakes reads it.
                    instance.setStateListener((now, before) -> {
                        synchronized (stateChanged) {
                            stateChanged.notifyAll();
                        }
                    });
                }
                first.start();
                second.start();
                awaitRunning(stateChanged, first, second);
                try (KafkaProducer<String, String> producer = StreamsApps.producer(kafka.bootstrapServers())) {
                    String[] clickers = {"ann", "bob", "cid", "ann", "bob", "ann"};
                    for (int i = 0; i < clickers.length; i++) {
                        producer.send(new ProducerRecord<>(CLICKS, null, WINDOW_START + 1_000L * i, clickers[i],
                                "/page/" + i)).get();
                    }
                }

                assertThat(StreamsApps.awaitCounts(kafka.bootstrapServers(), OUTPUT,
                        Map.of("north@" + WINDOW_START, 4L, "south@" + WINDOW_START, 2L)))
                        .containsEntry("north@" + WINDOW_START, 4L)
                        .containsEntry("south@" + WINDOW_START, 2L);
            }

            ConfigResource changelog = new ConfigResource(ConfigResource.Type.TOPIC,
                    APPLICATION + "-" + STORE + "-changelog");
            Config config = admin.describeConfigs(List.of(changelog)).all().get().get(changelog);
            assertThat(config.get("cleanup.policy").value()).isEqualTo("compact,delete");
            assertThat(Long.parseLong(config.get("retention.ms").value()))
                    .as("the window's size and grace, plus Streams' additional retention of a day")
                    .isEqualTo(Duration.ofMinutes(1).plusDays(1).toMillis());
        }
    }

    private static KafkaStreams clicksByRegion(String bootstrapServers, Path stateDir) {
        StreamsBuilder builder = new StreamsBuilder();
        KTable<String, String> regions = builder.table(USERS);
        builder.<String, String>stream(CLICKS)
                .join(regions, (page, region) -> region)
                .groupBy((user, region) -> region, Grouped.as("by-region"))
                .windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofMinutes(1)))
                .count(Materialized.as(STORE))
                .toStream()
                .map((window, count) -> KeyValue.pair(window.key() + "@" + window.window().start(), count))
                .to(OUTPUT, Produced.with(Serdes.String(), Serdes.Long()));
        Properties config = StreamsApps.config(APPLICATION, bootstrapServers, stateDir);
        config.put(StreamsConfig.NUM_STANDBY_REPLICAS_CONFIG, 1);
        return new KafkaStreams(builder.build(), config);
    }

    /**
     * Waits until both instances have settled their first rebalances and run, or a minute passes, woken by their
     * state listeners' {@code stateChanged.notifyAll()}.
     */
    private static void awaitRunning(Object stateChanged, KafkaStreams... instances) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        synchronized (stateChanged) {
            while (!Arrays.stream(instances).allMatch(instance -> instance.state() == KafkaStreams.State.RUNNING)) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("instances not running after a minute");
                }
                TimeUnit.NANOSECONDS.timedWait(stateChanged, left);
            }
        }
    }
}
