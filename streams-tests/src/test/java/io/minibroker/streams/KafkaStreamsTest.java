package io.minibroker.streams;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.message.ApiKey;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Kafka Streams 4.3, unmodified, against one broker: a word count with a state store, which takes a repartition
 * topic and a compacted changelog that Streams creates itself, a consumer group with Streams' own assignor,
 * idempotent producers, and DeleteRecords purges of the repartition topic. A second instance, its in-memory store
 * empty, must rebuild the counts from the changelog and carry on from the committed input offsets.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class KafkaStreamsTest {

    private static final String APPLICATION = "word-count";
    private static final String INPUT = "sentences";
    private static final String OUTPUT = "word-counts";

    @TempDir
    Path logDir;
    @TempDir
    Path firstStateDir;
    @TempDir
    Path secondStateDir;

    @Test
    void aWordCountKeepsItsCountsAcrossAnInstanceThatRestoresFromTheChangelog() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start(logDir, Map.of("group.initial.rebalance.delay.ms", "0"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic(INPUT, 3, (short) 1), new NewTopic(OUTPUT, 1, (short) 1)))
                    .all().get();
            try (KafkaProducer<String, String> producer = StreamsApps.producer(kafka.bootstrapServers())) {
                producer.send(new ProducerRecord<>(INPUT, "s1", "a b a")).get();
                producer.send(new ProducerRecord<>(INPUT, "s2", "b c")).get();
            }

            EachAnswer deleteRecords = new EachAnswer(kafka, ApiKey.DELETE_RECORDS); // before Streams sends any
            KafkaStreams first = wordCount(kafka.bootstrapServers(), firstStateDir);
            try {
                first.start();
                assertThat(StreamsApps.awaitCounts(kafka.bootstrapServers(), OUTPUT,
                        Map.of("a", 2L, "b", 2L, "c", 1L)))
                        .containsEntry("a", 2L).containsEntry("b", 2L).containsEntry("c", 1L);
                assertThat(awaitPurgedRepartitionRecords(admin, deleteRecords))
                        .as("records Streams deleted from its repartition topic")
                        .isEqualTo(5); // a, b, a, b, c
            } finally {
                // Leaving the group spares the next instance the wait for this one's session to time out.
                first.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP));
            }

            // The first instance's progress is on the broker: its input offsets, and its counts in the changelog.
            long committed = admin.listConsumerGroupOffsets(APPLICATION).partitionsToOffsetAndMetadata().get()
                    .entrySet().stream().filter(entry -> entry.getKey().topic().equals(INPUT))
                    .mapToLong(entry -> entry.getValue().offset()).sum();
            assertThat(committed).as("both sentences' offsets committed").isEqualTo(2);
            Set<String> topics = admin.listTopics().names().get();
            String changelog = APPLICATION + "-counts-changelog";
            assertThat(topics).contains(changelog).anyMatch(name -> name.endsWith("-repartition"));
            ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, changelog);
            assertThat(admin.describeConfigs(List.of(resource)).all().get().get(resource).get("cleanup.policy").value())
                    .isEqualTo("compact");

            try (KafkaProducer<String, String> producer = StreamsApps.producer(kafka.bootstrapServers())) {
                producer.send(new ProducerRecord<>(INPUT, "s3", "a d")).get();
            }
            // A fresh state directory: the counts so far can only come back from the changelog.
            try (KafkaStreams streams = wordCount(kafka.bootstrapServers(), secondStateDir)) {
                streams.start();
                assertThat(StreamsApps.awaitCounts(kafka.bootstrapServers(), OUTPUT, Map.of("a", 3L, "d", 1L)))
                        .containsEntry("a", 3L).containsEntry("b", 2L).containsEntry("c", 1L).containsEntry("d", 1L);
            }
        }
    }

    private static KafkaStreams wordCount(String bootstrapServers, Path stateDir) {
        Properties config = StreamsApps.config(APPLICATION, bootstrapServers, stateDir);
        config.put(StreamsConfig.REPARTITION_PURGE_INTERVAL_MS_CONFIG, 100);
        return new KafkaStreams(StreamsApps.wordCount(INPUT, OUTPUT), config);
    }

    /**
     * How far Streams has purged its repartition topic (DeleteRecords up to what it committed), summed over the
     * partitions: read again at each DeleteRecords answered (Streams sends one every purge interval) until all five
     * words are purged or half a minute passes.
     */
    private static long awaitPurgedRepartitionRecords(Admin admin, EachAnswer deleteRecords) throws Exception {
        String repartition = admin.listTopics().names().get().stream().filter(name -> name.endsWith("-repartition"))
                .findFirst().orElseThrow();
        Map<TopicPartition, OffsetSpec> earliest = new HashMap<>();
        for (int partition = 0; partition < 3; partition++) {
            earliest.put(new TopicPartition(repartition, partition), OffsetSpec.earliest());
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        long purged;
        do {
            purged = admin.listOffsets(earliest).all().get().values().stream().mapToLong(info -> info.offset()).sum();
        } while (purged < 5 && deleteRecords.next(deadline));
        return purged;
    }
}
