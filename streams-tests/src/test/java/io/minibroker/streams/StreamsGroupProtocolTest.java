package io.minibroker.streams;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka Streams 4.3.1, unmodified, with {@code group.protocol=streams} (KIP-1071): the broker checks the word count's
 * topology, creates its repartition and changelog topics, and assigns its six tasks (two subtopologies of three
 * partitions) over two instances; when one instance leaves, its tasks move to the other, which counts on.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StreamsGroupProtocolTest {

    private static final String APPLICATION = "streams-protocol-word-count";
    private static final String INPUT = "lines";
    private static final String OUTPUT = "line-word-counts";

    @TempDir
    Path logDir;
    @TempDir
    Path firstStateDir;
    @TempDir
    Path secondStateDir;

    @Test
    void twoInstancesShareTheTasksAndOneTakesThemAllWhenTheOtherLeaves() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of(
                "group.coordinator.rebalance.protocols", "classic,consumer,streams",
                "group.streams.heartbeat.interval.ms", "500"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 1), new NewTopic(OUTPUT, 1, (short) 1)))
                    .all().get();
            KafkaStreams first = wordCount(kafka.bootstrapServers(), firstStateDir);
            KafkaStreams second = wordCount(kafka.bootstrapServers(), secondStateDir);
            try {
                first.start();
                second.start();
                awaitActiveTasks(List.of(first, second), 3);
                try (KafkaProducer<String, String> producer = StreamsApps.producer(kafka.bootstrapServers())) {
                    producer.send(new ProducerRecord<>(INPUT, "l1", "a b a")).get();
                    producer.send(new ProducerRecord<>(INPUT, "l2", "b c")).get();
                    producer.send(new ProducerRecord<>(INPUT, "l3", "c d")).get();
                }
                assertThat(StreamsApps.awaitCounts(kafka.bootstrapServers(), OUTPUT,
                        Map.of("a", 2L, "b", 2L, "c", 2L, "d", 1L)))
                        .containsEntry("a", 2L).containsEntry("b", 2L).containsEntry("c", 2L).containsEntry("d", 1L);
                Collection<GroupListing> groups = admin.listGroups(ListGroupsOptions.forStreamsGroups()).all().get();
                assertThat(groups).singleElement().satisfies(group -> {
                    assertThat(group.groupId()).isEqualTo(APPLICATION);
                    assertThat(group.type()).contains(GroupType.STREAMS);
                });

                first.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
                awaitActiveTasks(List.of(second), 6);
                try (KafkaProducer<String, String> producer = StreamsApps.producer(kafka.bootstrapServers())) {
                    producer.send(new ProducerRecord<>(INPUT, "l4", "a d e")).get();
                }
                assertThat(StreamsApps.awaitCounts(kafka.bootstrapServers(), OUTPUT,
                        Map.of("a", 3L, "d", 2L, "e", 1L)))
                        .containsEntry("a", 3L).containsEntry("b", 2L).containsEntry("c", 2L)
                        .containsEntry("d", 2L).containsEntry("e", 1L);
            } finally {
                first.close();
                second.close();
            }
        }
    }

    private static KafkaStreams wordCount(String bootstrapServers, Path stateDir) {
        Properties config = StreamsApps.config(APPLICATION, bootstrapServers, stateDir);
        config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        return new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
    }

    /** Waits until each instance runs this many active tasks (the streams group's assignment reached it). */
    private static void awaitActiveTasks(List<KafkaStreams> instances, int each) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!instances.stream().allMatch(instance -> activeTasks(instance) == each)) {
            assertThat(System.nanoTime()).as("active tasks reached").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static int activeTasks(KafkaStreams instance) {
        return instance.metadataForLocalThreads().stream().map(ThreadMetadata::activeTasks).mapToInt(java.util.Set::size)
                .sum();
    }
}
