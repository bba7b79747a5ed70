package io.minibroker.streams;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.minibroker.broker.embedded.MiniCluster;
import io.minibroker.broker.server.SessionClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka Streams 4.3.1 with {@code group.protocol=streams} (KIP-1071) on three nodes, every internal topic with three
 * replicas: the group coordinator has the word count's repartition and changelog topics created through the
 * controller, two instances share its tasks, and every node answers the streams group tools alike. When the
 * coordinator's node is killed, the group moves with its partition of {@code __consumer_offsets} to a node that
 * reloads it, and an {@code exactly_once_v2} app counts on without a lost or repeated update. Internal topics the
 * controller refuses (more replicas than brokers) are named in the heartbeat's status, which the client logs.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class StreamsGroupClusterTest {

    private static final String INPUT = "cluster-lines";
    private static final String OUTPUT = "cluster-word-counts";

    @TempDir
    Path firstStateDir;
    @TempDir
    Path secondStateDir;

    private SessionClock.Running running;
    private MiniCluster cluster;

    @BeforeEach
    void start() throws Exception {
        running = SessionClock.startRunning(3, 1_500, Map.of("replica.lag.time.max.ms", "3000",
                "min.insync.replicas", "2", "default.replication.factor", "3",
                "offsets.topic.num.partitions", "3", "offsets.topic.replication.factor", "3",
                "transaction.state.log.num.partitions", "3", "transaction.state.log.replication.factor", "3",
                "group.streams.heartbeat.interval.ms", "500", "group.streams.min.heartbeat.interval.ms", "500"));
        cluster = running.cluster();
        try (Admin admin = admin(cluster.bootstrapServers())) {
            admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 3), new NewTopic(OUTPUT, 1, (short) 3)))
                    .all().get();
        }
    }

    @AfterEach
    void close() {
        running.close();
    }

    @Test
    void twoInstancesShareTheTasksAndEveryNodeAnswersTheGroupTools() throws Exception {
        String application = "cluster-word-count";
        String bootstrap = cluster.bootstrapServers();
        KafkaStreams first = app(application, bootstrap, firstStateDir, StreamsConfig.AT_LEAST_ONCE);
        KafkaStreams second = app(application, bootstrap, secondStateDir, StreamsConfig.AT_LEAST_ONCE);
        try {
            first.start();
            second.start();
            StreamsApps.awaitActiveTasks(List.of(first, second), 3, 90);
            try (KafkaProducer<String, String> producer = StreamsApps.producer(bootstrap)) {
                producer.send(new ProducerRecord<>(INPUT, "l1", "a b a")).get();
                producer.send(new ProducerRecord<>(INPUT, "l2", "b c")).get();
                producer.send(new ProducerRecord<>(INPUT, "l3", "c d")).get();
            }
            assertThat(StreamsApps.awaitCounts(bootstrap, OUTPUT, Map.of("a", 2L, "b", 2L, "c", 2L, "d", 1L)))
                    .containsEntry("a", 2L).containsEntry("b", 2L).containsEntry("c", 2L).containsEntry("d", 1L);

            try (Admin admin = admin(bootstrap)) {
                // Created by the controller as the coordinator decided them: three partitions, three replicas.
                Map<String, org.apache.kafka.clients.admin.TopicDescription> internal = admin.describeTopics(List.of(
                        application + "-counts-changelog", application + "-counts-repartition")).allTopicNames().get();
                assertThat(internal.values()).allSatisfy(topic -> {
                    assertThat(topic.partitions()).hasSize(3);
                    assertThat(topic.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
                });
            }
            StreamsGroupDescription seen = null;
            for (int node = 0; node < cluster.size(); node++) {
                try (Admin admin = admin(nodeBootstrap(node))) {
                    Collection<GroupListing> groups = admin.listGroups(ListGroupsOptions.forStreamsGroups()).all()
                            .get();
                    assertThat(groups).as("streams groups listed from node %d", node).singleElement()
                            .satisfies(group -> {
                                assertThat(group.groupId()).isEqualTo(application);
                                assertThat(group.type()).contains(GroupType.STREAMS);
                                assertThat(group.groupState()).contains(GroupState.STABLE);
                            });
                    StreamsGroupDescription described = admin.describeStreamsGroups(List.of(application)).all().get()
                            .get(application);
                    assertThat(described.groupState()).isEqualTo(GroupState.STABLE);
                    assertThat(described.members()).hasSize(2);
                    assertThat(described.subtopologies()).hasSize(2);
                    if (seen != null) {
                        assertThat(described).as("described from node %d", node).isEqualTo(seen);
                    }
                    seen = described;
                }
            }
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void theGroupMovesWithItsCoordinatorsNodeAndAnExactlyOnceAppCountsOn() throws Exception {
        String application = "cluster-eos-word-count";
        String bootstrap = cluster.bootstrapServers();
        Map<String, Long> expected = new HashMap<>();
        StreamsApps.sendSentences(bootstrap, INPUT, 0, 750, expected);
        try (Admin admin = admin(bootstrap)) {
            // Finding the group's coordinator has __consumer_offsets created; the Admin retries until it is led.
            admin.listConsumerGroupOffsets(application).partitionsToOffsetAndMetadata().get();
        }
        // The controller's node stays up: the coordinator is put on another, to be killed.
        cluster.moveGroupCoordinator(application, 1);
        Properties config = StreamsApps.config(application, bootstrap, firstStateDir);
        config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        // Small polls: the input takes many transactions.
        config.put(StreamsConfig.consumerPrefix(ConsumerConfig.MAX_POLL_RECORDS_CONFIG), 20);
        try (KafkaStreams app = new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
             Admin admin = admin(bootstrap)) {
            app.start();
            StreamsApps.awaitActiveTasks(List.of(app), 6, 90);
            StreamsGroupDescription before = admin.describeStreamsGroups(List.of(application)).all().get()
                    .get(application);
            assertThat(before.coordinator().id()).isEqualTo(1);
            awaitCommittedInput(admin, application, committed -> committed >= 100);

            cluster.kill(1);
            // Sent after the kill, so counted under the next coordinator, whatever was counted before it.
            StreamsApps.sendSentences(bootstrap, INPUT, 750, 1_500, expected);

            Map<String, List<Long>> updates = StreamsApps.awaitUpdates(bootstrap, OUTPUT, expected, 150);
            updates.forEach((word, counts) -> assertThat(counts).as("updates of " + word)
                    .containsExactlyElementsOf(StreamsApps.oneTo(expected.get(word))));
            assertThat(updates.keySet()).isEqualTo(expected.keySet());

            StreamsGroupDescription after = admin.describeStreamsGroups(List.of(application)).all().get()
                    .get(application);
            assertThat(after.coordinator().id()).as("a new coordinator").isNotEqualTo(1);
            assertThat(after.members()).extracting(m -> m.memberId())
                    .isEqualTo(before.members().stream().map(m -> m.memberId()).toList());
            assertThat(after.groupEpoch()).as("reloaded, not rebuilt").isEqualTo(before.groupEpoch());
        }
    }

    @Test
    void anInternalTopicTheControllerRefusesIsWhatTheStreamsClientLogsAsItsStatus() throws Exception {
        String application = "cluster-refused-word-count";
        Properties config = StreamsApps.config(application, cluster.bootstrapServers(), firstStateDir);
        config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        // Four replicas for the internal topics, on three brokers: the controller refuses both.
        config.put(StreamsConfig.REPLICATION_FACTOR_CONFIG, 4);
        String why = " (Unable to replicate the partition 4 time(s): The target replication factor of 4 cannot be "
                + "reached because only 3 broker(s) are registered.)";
        String refused = "Creation failed: " + application + "-counts-changelog" + why + ","
                + application + "-counts-repartition" + why + ".";
        Logger heartbeats = (Logger) LoggerFactory.getLogger(
                "org.apache.kafka.clients.consumer.internals.StreamsGroupHeartbeatRequestManager");
        CountDownLatch told = new CountDownLatch(1);
        AppenderBase<ILoggingEvent> statuses = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent event) {
                if (event.getFormattedMessage().contains(refused)) {
                    told.countDown();
                }
            }
        };
        statuses.start();
        heartbeats.addAppender(statuses);
        try (KafkaStreams app = new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config)) {
            app.start();
            // The client logs each heartbeat's statuses (WARN "Membership is in the following statuses"): the
            // coordinator's node names the controller's refusal there, so the user sees why the app has no tasks.
            assertThat(told.await(60, TimeUnit.SECONDS)).as("a status naming the refusal, logged").isTrue();
            try (Admin admin = admin(cluster.bootstrapServers())) {
                assertThat(admin.listTopics().names().get()).doesNotContain(application + "-counts-changelog",
                        application + "-counts-repartition");
            }
        } finally {
            heartbeats.detachAppender(statuses);
        }
    }

    private String nodeBootstrap(int node) {
        return "localhost:" + cluster.node(node).boundPort("PLAINTEXT");
    }

    private static Admin admin(String bootstrap) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    }

    private static KafkaStreams app(String application, String bootstrap, Path stateDir, String guarantee) {
        Properties config = StreamsApps.config(application, bootstrap, stateDir);
        config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, guarantee);
        return new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
    }

    private static long committedInput(Admin admin, String application) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(application)
                .partitionsToOffsetAndMetadata().get();
        return offsets.entrySet().stream().filter(e -> e.getKey().topic().equals(INPUT))
                .mapToLong(e -> e.getValue().offset()).sum();
    }

    private static void awaitCommittedInput(Admin admin, String application,
                                            java.util.function.LongPredicate condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.test(committedInput(admin, application))) {
            assertThat(System.nanoTime()).as("input committed in time").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
