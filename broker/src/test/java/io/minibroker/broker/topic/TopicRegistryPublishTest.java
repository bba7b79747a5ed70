package io.minibroker.broker.topic;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.LogListener;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.error.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A topic is found ({@link TopicRegistry#get}) only once every log of it exists: a single node's FindCoordinator
 * answers itself as soon as {@code __consumer_offsets} is found, and a group's first write to a partition whose log
 * was still being created failed (kafkajs's SyncGroup got COORDINATOR_NOT_AVAILABLE on a fresh broker).
 */
class TopicRegistryPublishTest {

    @TempDir
    Path logDir;
    private TopicRegistry topics;

    @AfterEach
    void close() throws IOException {
        if (topics != null) {
            topics.close();
        }
    }

    @Test
    void aTopicIsFoundOnlyOnceItsLogsExist() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        List<String> seenWhileCreating = new CopyOnWriteArrayList<>();
        topics.logs().addListener(new LogListener() {
            @Override
            public void logOpened(PartitionLog log) {
                // Runs as each log is created, in the creating thread: what a concurrent request would find now.
                // A topic found with this partition, whose log is only being created now, is one found too early.
                String topic = log.topicPartition().topic();
                int partition = log.topicPartition().partition();
                topics.get(topic).filter(found -> found.partitions() > partition).ifPresent(found ->
                        seenWhileCreating.add(topic + " with " + found.partitions() + " partitions while creating"
                                + " partition " + partition));
            }
        });

        assertThat(topics.autoCreate("__consumer_offsets").error()).isEqualTo(Errors.NONE);
        assertThat(topics.create("orders", 4, 1, Map.of(), false).error()).isEqualTo(Errors.NONE);
        assertThat(topics.addPartitions("orders", 6, null, 0, false, added -> true).error()).isEqualTo(Errors.NONE);

        assertThat(seenWhileCreating).isEmpty();
        assertThat(topics.get("__consumer_offsets")).isPresent();
        assertThat(topics.get("orders").orElseThrow().partitions()).isEqualTo(6);
    }

    @Test
    void aTopicWhoseSaveFailedIsNotFound() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        // A non-empty directory where the topic's file goes: the store's rename onto it fails.
        Files.createDirectories(logDir.resolve(TopicStore.DIR).resolve("broken.properties").resolve("in-the-way"));

        assertThat(topics.create("broken", 1, 1, Map.of(), false).error()).isEqualTo(Errors.KAFKA_STORAGE_ERROR);

        assertThat(topics.get("broken")).isEmpty();
    }

    @Test
    void aNewTopicsLogsHaveItsOverridesFromTheStart() throws IOException {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        Map<String, String> overrides = Map.of("cleanup.policy", "compact", "segment.bytes", "1048576");

        assertThat(topics.create("compacted", 2, 1, overrides, false).error()).isEqualTo(Errors.NONE);
        assertThat(topics.addPartitions("compacted", 3, null, 0, false, added -> true).error()).isEqualTo(Errors.NONE);

        for (int partition = 0; partition < 3; partition++) {
            PartitionLog log = topics.logs().log(new io.minibroker.broker.log.TopicPartition("compacted", partition))
                    .orElseThrow();
            assertThat(log.config().compacted()).as("partition %d", partition).isTrue();
            assertThat(log.config().segmentBytes()).as("partition %d", partition).isEqualTo(1_048_576);
        }
    }
}
