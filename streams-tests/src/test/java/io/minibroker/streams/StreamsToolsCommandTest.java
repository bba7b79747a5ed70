package io.minibroker.streams;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.tools.KafkaToolProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.StreamsGroupMemberDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.tools.StreamsResetter;
import org.apache.kafka.tools.streams.StreamsGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-streams-groups.sh and kafka-streams-application-reset.sh (kafka-tools 4.3.1's StreamsGroupCommand and
 * StreamsResetter, each in a child JVM as its script runs it) on the streams group of a Kafka Streams 4.3.1 word count
 * with {@code group.protocol=streams}: listed, described, its offsets reset, shifted and deleted, the app reset (its
 * internal topics deleted, and with them the group's commits of the repartition topic, as on Kafka), the group
 * deleted. Every expected text is what the same commands printed
 * against a Kafka 4.3.1 node formatted with its defaults, the same app and the same input (2026-11-28; the port, the
 * member and process ids apart, and the spaces that pad the last column). Not here: {@code --describe --verbose},
 * whose epochs were compared by hand (the same as Kafka 4.3.1's since new groups start at epoch 1 here too).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class StreamsToolsCommandTest {

    private static final Class<?> GROUPS = StreamsGroupCommand.class;
    private static final String APPLICATION = "wc";
    private static final String INPUT = "lines";
    private static final String OUTPUT = "counts-out";

    @TempDir
    Path logDir;
    @TempDir
    Path stateDir;

    @Test
    void aStreamsGroupAsKafkaStreamsGroupsShowsItOnKafka() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            String bootstrap = kafka.bootstrapServers();
            admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 1), new NewTopic(OUTPUT, 1, (short) 1)))
                    .all().get();
            try (KafkaProducer<String, String> producer = StreamsApps.producer(bootstrap)) {
                producer.send(new ProducerRecord<>(INPUT, "k1", "a b a"));
                producer.send(new ProducerRecord<>(INPUT, "k2", "b c"));
                producer.send(new ProducerRecord<>(INPUT, "k3", "c d"));
                producer.send(new ProducerRecord<>(INPUT, "k4", "d e f")).get();
            }
            Properties config = StreamsApps.config(APPLICATION, bootstrap, stateDir);
            config.put(StreamsConfig.GROUP_PROTOCOL_CONFIG, "streams");
            KafkaStreams app = new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
            try {
                app.start();
                awaitCommittedToTheEnd(admin);

                assertThat(tool(GROUPS, bootstrap, "--describe", "--group", APPLICATION)).isEqualTo("""
                        GROUP           TOPIC                 PARTITION  OFFSET-LAG
                        wc              lines                 0          0
                        wc              wc-counts-repartition 0          0
                        wc              wc-counts-repartition 2          0
                        wc              wc-counts-repartition 1          0
                        wc              lines                 1          0
                        wc              lines                 2          0
                        """);
                String port = bootstrap.replaceAll(".*:", "");
                assertThat(tool(GROUPS, bootstrap, "--describe", "--group", APPLICATION, "--state")).isEqualTo("""
                        GROUP           COORDINATOR (ID)          STATE                     #MEMBERS
                        wc              localhost:%s (1)       Stable                    1
                        """.formatted(port));
                StreamsGroupMemberDescription member = admin.describeStreamsGroups(List.of(APPLICATION)).all().get()
                        .get(APPLICATION).members().iterator().next();
                // The columns are as wide as the member id, the process id and the client id, as on Kafka.
                assertThat(tool(GROUPS, bootstrap, "--describe", "--group", APPLICATION, "--members")).isEqualTo(
                        String.format("%-15s %-22s %-36s %-63s %s%n%-15s %s %s %s %s%n", "GROUP", "MEMBER", "PROCESS",
                                "CLIENT-ID", "ASSIGNMENTS", APPLICATION, member.memberId(), member.processId(),
                                member.clientId(), "ACTIVE: 0:[0,1,2]; 1:[0,1,2];"));
            } finally {
                app.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
            }

            assertThat(tool(GROUPS, bootstrap, "--list", "--state"))
                    .isEqualTo("GROUP           STATE\nwc              Empty\n");
            assertThat(tool(GROUPS, bootstrap, "--reset-offsets", "--group", APPLICATION, "--all-input-topics",
                    "--to-earliest", "--dry-run")).isEqualTo("""

                    GROUP                          TOPIC                          PARTITION  NEW-OFFSET
                    wc                             lines                          0          0
                    wc                             lines                          1          0
                    wc                             lines                          2          0
                    """);
            assertThat(tool(GROUPS, bootstrap, "--reset-offsets", "--group", APPLICATION, "--input-topic", "lines:1",
                    "--shift-by", "-1", "--execute")).isEqualTo("""

                    GROUP                          TOPIC                          PARTITION  NEW-OFFSET
                    wc                             lines                          1          1
                    """);
            assertThat(tool(GROUPS, bootstrap, "--delete-offsets", "--group", APPLICATION, "--input-topic", "lines:2"))
                    .isEqualTo("""
                            Request succeeded for deleting offsets from group wc.

                            TOPIC           PARTITION  STATUS
                            lines           2          Successful
                            """);
            assertThat(tool(StreamsResetter.class, bootstrap, "--application-id", APPLICATION, "--input-topics", INPUT))
                    .isEqualTo("""
                            Reset-offsets for input topics [lines]
                            Following input topics offsets will be reset to (for consumer group wc)
                            Topic: lines Partition: 0 Offset: 0
                            Topic: lines Partition: 1 Offset: 0
                            Topic: lines Partition: 2 Offset: 0
                            Done.
                            Deleting inferred internal topics [wc-counts-repartition, wc-counts-changelog]
                            Done.
                            """);
            // As on Kafka, the deleted repartition topic's commits go with it: the group has the input's only.
            awaitCommitted(admin, Map.of(new TopicPartition(INPUT, 0), 0L, new TopicPartition(INPUT, 1), 0L,
                    new TopicPartition(INPUT, 2), 0L));
            assertThat(tool(GROUPS, bootstrap, "--delete", "--group", APPLICATION))
                    .isEqualTo("Deletion of requested streams groups ('wc') was successful.\n");
        }
    }

    /** Waits until the group's commits reach the end of every partition it reads: then every lag is 0. */
    private static void awaitCommittedToTheEnd(Admin admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(APPLICATION)
                    .partitionsToOffsetAndMetadata().get();
            if (committed.size() == 6) {
                Map<TopicPartition, OffsetSpec> latest = committed.keySet().stream()
                        .collect(Collectors.toMap(partition -> partition, partition -> OffsetSpec.latest()));
                var ends = admin.listOffsets(latest).all().get();
                if (committed.entrySet().stream().allMatch(
                        entry -> entry.getValue().offset() == ends.get(entry.getKey()).offset())) {
                    return;
                }
            }
            assertThat(System.nanoTime()).as("offsets committed to the end").isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /** Waits until the group's commits are these, all of them (OffsetFetch of every partition). */
    private static void awaitCommitted(Admin admin, Map<TopicPartition, Long> expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            Map<TopicPartition, Long> committed = admin.listConsumerGroupOffsets(APPLICATION)
                    .partitionsToOffsetAndMetadata().get().entrySet().stream()
                    .collect(Collectors.toMap(Map.Entry::getKey, entry -> entry.getValue().offset()));
            if (committed.equals(expected)) {
                return;
            }
            assertThat(System.nanoTime()).as("the commits %s, now %s", expected, committed).isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    /**
     * The tool's standard output, every line without the spaces that pad its last column: the tool in a child JVM
     * ({@link KafkaToolProcess}) on this module's class path (kafka-clients 4.3.1).
     */
    private static String tool(Class<?> command, String bootstrap, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        line.addAll(List.of(args));
        return KafkaToolProcess.run(System.getProperty("java.class.path"), 0, command, line).lines()
                .map(text -> text.stripTrailing() + "\n").collect(Collectors.joining());
    }
}
