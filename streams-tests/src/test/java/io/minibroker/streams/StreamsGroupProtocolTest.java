package io.minibroker.streams;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.StreamsGroupDescription;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
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
 * partitions) over two instances; when one instance leaves, its tasks move to the other, which counts on. The group is
 * kept in {@code __consumer_offsets}: a broker restarted on its log dir has it back, and the app counts on.
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
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.streams.heartbeat.interval.ms", "500",
                "group.streams.min.heartbeat.interval.ms", "500"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 1), new NewTopic(OUTPUT, 1, (short) 1)))
                    .all().get();
            KafkaStreams first = wordCount(kafka.bootstrapServers(), firstStateDir);
            KafkaStreams second = wordCount(kafka.bootstrapServers(), secondStateDir);
            try {
                first.start();
                second.start();
                StreamsApps.awaitActiveTasks(List.of(first, second), 3, 60);
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
                StreamsApps.awaitActiveTasks(List.of(second), 6, 60);
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

    @Test
    void theGroupOutlivesABrokerRestartAndTheAppCountsOnExactly() throws Exception {
        Map<String, String> heartbeats = Map.of("group.streams.heartbeat.interval.ms", "500",
                "group.streams.min.heartbeat.interval.ms", "500");
        EmbeddedBroker kafka = EmbeddedBroker.start(logDir, heartbeats);
        String bootstrap = kafka.bootstrapServers();
        KafkaStreams app = wordCount(bootstrap, firstStateDir);
        try {
            StreamsGroupDescription before;
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 1), new NewTopic(OUTPUT, 1, (short) 1)))
                        .all().get();
                app.start();
                StreamsApps.awaitActiveTasks(List.of(app), 6, 60);
                // Everything read is committed before the restart: what is counted after it is counted once.
                countTwoLinesAndCommit(bootstrap, admin);
                before = streamsGroup(admin);
            }

            kafka.close();
            kafka = EmbeddedBroker.start(logDir, withListenerOn(heartbeats, bootstrap));

            try (KafkaProducer<String, String> producer = StreamsApps.producer(bootstrap)) {
                producer.send(new ProducerRecord<>(INPUT, "l3", "a c d")).get();
            }
            assertThat(StreamsApps.awaitCounts(bootstrap, OUTPUT, Map.of("a", 3L, "c", 2L, "d", 1L)))
                    .containsEntry("a", 3L).containsEntry("b", 2L).containsEntry("c", 2L).containsEntry("d", 1L);
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                StreamsGroupDescription after = streamsGroup(admin);
                assertThat(after.groupEpoch()).as("no new group epoch").isEqualTo(before.groupEpoch());
                assertThat(after.members()).extracting(StreamsGroupMemberDescription::memberId)
                        .isEqualTo(before.members().stream().map(StreamsGroupMemberDescription::memberId).toList());
                assertThat(after.members()).extracting(StreamsGroupMemberDescription::memberEpoch)
                        .isEqualTo(before.members().stream().map(StreamsGroupMemberDescription::memberEpoch)
                                .toList());
            }
        } finally {
            app.close();
            kafka.close();
        }
    }

    @Test
    void anAppMovedFromTheClassicProtocolToStreamsCarriesOnFromItsCommittedOffsets() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.streams.heartbeat.interval.ms", "500",
                "group.streams.min.heartbeat.interval.ms", "500"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            String bootstrap = kafka.bootstrapServers();
            admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 1), new NewTopic(OUTPUT, 1, (short) 1)))
                    .all().get();
            Properties classicConfig = StreamsApps.config(APPLICATION, bootstrap, firstStateDir);
            try (KafkaStreams classic = new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), classicConfig)) {
                classic.start();
                countTwoLinesAndCommit(bootstrap, admin);
                classic.close(CloseOptions.groupMembershipOperation(
                        CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
            }
            awaitEmptyClassicGroup(admin);

            // The same application.id on group.protocol=streams, on a fresh state directory: it reads on from the
            // classic group's commits (its counts restored from the changelog), never the input again.
            KafkaStreams streams = wordCount(bootstrap, secondStateDir);
            try {
                streams.start();
                StreamsApps.awaitActiveTasks(List.of(streams), 6, 60);
                try (KafkaProducer<String, String> producer = StreamsApps.producer(bootstrap)) {
                    producer.send(new ProducerRecord<>(INPUT, "l3", "a c d")).get();
                }
                assertThat(StreamsApps.awaitCounts(bootstrap, OUTPUT, Map.of("a", 3L, "c", 2L, "d", 1L)))
                        .containsEntry("a", 3L).containsEntry("b", 2L).containsEntry("c", 2L).containsEntry("d", 1L);
                awaitCommittedToTheEnd(admin);
                // Five counts from the classic run, three from this one: nothing read twice.
                TopicPartition output = new TopicPartition(OUTPUT, 0);
                assertThat(admin.listOffsets(Map.of(output, OffsetSpec.latest())).all().get().get(output).offset())
                        .isEqualTo(8);
                assertThat(admin.listGroups(ListGroupsOptions.forStreamsGroups()).all().get()).singleElement()
                        .satisfies(group -> assertThat(group.groupId()).isEqualTo(APPLICATION));
            } finally {
                streams.close();
            }
        }
    }

    /** Sends the first two lines, waits for their counts (five records out) and for the app to commit them. */
    private static void countTwoLinesAndCommit(String bootstrap, Admin admin) throws Exception {
        try (KafkaProducer<String, String> producer = StreamsApps.producer(bootstrap)) {
            producer.send(new ProducerRecord<>(INPUT, "l1", "a b a")).get();
            producer.send(new ProducerRecord<>(INPUT, "l2", "b c")).get();
        }
        assertThat(StreamsApps.awaitCounts(bootstrap, OUTPUT, Map.of("a", 2L, "b", 2L, "c", 1L)))
                .containsEntry("a", 2L).containsEntry("b", 2L).containsEntry("c", 1L);
        awaitCommittedToTheEnd(admin);
    }

    /** Waits until the classic group the app left is Empty: its member gone, its commits kept. */
    private static void awaitEmptyClassicGroup(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (admin.describeConsumerGroups(List.of(APPLICATION)).all().get().get(APPLICATION).groupState()
                != org.apache.kafka.common.GroupState.EMPTY) {
            assertThat(System.nanoTime()).as("the classic group Empty").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** The overrides with the client listener on the port {@code bootstrap} names, for the clients to come back. */
    private static Map<String, String> withListenerOn(Map<String, String> overrides, String bootstrap) {
        Map<String, String> restarted = new java.util.HashMap<>(overrides);
        restarted.put("listeners", "PLAINTEXT://" + bootstrap);
        return restarted;
    }

    private static StreamsGroupDescription streamsGroup(Admin admin) throws Exception {
        return admin.describeStreamsGroups(List.of(APPLICATION)).all().get().get(APPLICATION);
    }

    /** Waits until the app's committed offsets reach the end of every partition it reads. */
    private static void awaitCommittedToTheEnd(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> committed =
                    admin.listConsumerGroupOffsets(APPLICATION).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> latest = new java.util.HashMap<>();
            committed.keySet().forEach(partition -> latest.put(partition, OffsetSpec.latest()));
            Map<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> ends = admin.listOffsets(latest).all().get();
            boolean readsInputAndRepartition = committed.keySet().stream().map(TopicPartition::topic)
                    .distinct().count() == 2;
            if (readsInputAndRepartition && committed.entrySet().stream().allMatch(
                    entry -> entry.getValue().offset() == ends.get(entry.getKey()).offset())) {
                return;
            }
            assertThat(System.nanoTime()).as("offsets committed to the end").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static KafkaStreams wordCount(String bootstrapServers, Path stateDir) {
        Properties config = StreamsApps.config(APPLICATION, bootstrapServers, stateDir);
        config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
        return new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
    }
}
