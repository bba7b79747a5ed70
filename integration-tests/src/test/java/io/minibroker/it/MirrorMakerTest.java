package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MirrorMaker 2 (connect-mirror 4.3.1) between two single-node brokers: its source and checkpoint connectors in a
 * Connect worker on the target copy a topic to {@code source.<topic>} (its records, a non-default setting and a
 * partition added later) and a consumer group's committed offsets, translated, to the same group on the target.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MirrorMakerTest {

    private static final String TOPIC = "orders";
    private static final String GROUP = "billing";
    private static final int RECORDS = 100;
    /** A topic setting that is not the default: MirrorMaker copies such settings to the remote topic. */
    private static final String RETENTION_MS = "86400000";

    @Test
    void aTopicAndAGroupsCommittedOffsetsAreMirroredToTheTargetCluster() throws Exception {
        try (EmbeddedBroker source = EmbeddedBroker.start(Map.of("cluster.id", "mirror-source"));
             EmbeddedBroker target = EmbeddedBroker.start(Map.of("cluster.id", "mirror-target"))) {
            List<String> values = IntStream.range(0, RECORDS).mapToObj(i -> "order " + i).toList();
            produce(source.bootstrapServers(), values);
            consumeAndCommit(source.bootstrapServers());

            try (ConnectWorker connect = ConnectWorker.start(target.bootstrapServers(), "mirror", Map.of(
                    "key.converter", "org.apache.kafka.connect.converters.ByteArrayConverter",
                    "value.converter", "org.apache.kafka.connect.converters.ByteArrayConverter"))) {
                Map<String, String> clusters = Map.of(
                        "source.cluster.alias", "source",
                        "target.cluster.alias", "target",
                        "source.cluster.bootstrap.servers", source.bootstrapServers(),
                        "target.cluster.bootstrap.servers", target.bootstrapServers());
                Map<String, String> mirror = new HashMap<>(clusters);
                mirror.putAll(Map.of(
                        "connector.class", "org.apache.kafka.connect.mirror.MirrorSourceConnector",
                        "tasks.max", "1",
                        "topics", TOPIC,
                        "replication.factor", "1",
                        "offset-syncs.topic.replication.factor", "1",
                        "refresh.topics.interval.seconds", "1"));
                Map<String, String> checkpoint = new HashMap<>(clusters);
                checkpoint.putAll(Map.of(
                        "connector.class", "org.apache.kafka.connect.mirror.MirrorCheckpointConnector",
                        "tasks.max", "1",
                        "groups", GROUP,
                        "checkpoints.topic.replication.factor", "1",
                        "emit.checkpoints.interval.seconds", "1",
                        "sync.group.offsets.enabled", "true",
                        "sync.group.offsets.interval.seconds", "1"));
                connect.putConnector("mirror-source", mirror);
                connect.putConnector("mirror-checkpoint", checkpoint);
                connect.awaitRunning("mirror-source", 1);
                connect.awaitRunning("mirror-checkpoint", 1);

                assertThat(Clients.readValues(target.bootstrapServers(), "source." + TOPIC, RECORDS))
                        .as("source.orders on the target").containsExactlyElementsOf(values);
                TopicPartition mirrored = new TopicPartition("source." + TOPIC, 0);
                // Awaited at its final value: the checkpoint task may sync a first translation before the source task
                // has written the offset sync of the last record (it holds that one back until its next commit), and
                // MirrorMaker translates past the latest sync as that sync's downstream offset plus one.
                Eventually.await(() -> committedOffset(target.bootstrapServers(), mirrored) == RECORDS,
                        () -> "the group's offset of source.orders, translated, to be " + RECORDS + "; the target has "
                                + committed(target.bootstrapServers()));
                assertThat(retentionMs(target.bootstrapServers(), "source." + TOPIC))
                        .as("the topic's retention.ms on the target").isEqualTo(RETENTION_MS);

                // A partition added on the source is added to the remote topic (Admin createPartitions) and mirrored.
                try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        source.bootstrapServers()));
                     KafkaProducer<String, String> producer = Clients.producer(source.bootstrapServers())) {
                    admin.createPartitions(Map.of(TOPIC, NewPartitions.increaseTo(2))).all().get();
                    producer.send(new ProducerRecord<>(TOPIC, 1, null, "order in partition 1")).get();
                }
                assertThat(Clients.readValues(target.bootstrapServers(),
                        List.of(new TopicPartition("source." + TOPIC, 1)), 1))
                        .as("source.orders partition 1 on the target").containsExactly("order in partition 1");
            }
        }
    }

    private static void produce(String bootstrapServers, List<String> values) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
             KafkaProducer<String, String> producer = Clients.producer(bootstrapServers)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1).configs(Map.of("retention.ms", RETENTION_MS))))
                    .all().get();
            for (String value : values) {
                producer.send(new ProducerRecord<>(TOPIC, value));
            }
            producer.flush();
        }
    }

    /** The group reads the whole topic and commits its position, the end of the topic, as a consumer app does. */
    private static void consumeAndCommit(String bootstrapServers) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, GROUP,
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class,
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class))) {
            consumer.subscribe(List.of(TOPIC));
            int read = 0;
            while (read < RECORDS) {
                read += consumer.poll(Duration.ofMillis(200)).count();
            }
            consumer.commitSync();
        }
    }

    private static String retentionMs(String bootstrapServers, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            return admin.describeConfigs(List.of(resource)).all().get().get(resource).get("retention.ms").value();
        }
    }

    /** The group's committed offset of {@code partition} on the target, -1 while it has none. */
    private static long committedOffset(String bootstrapServers, TopicPartition partition) {
        OffsetAndMetadata offset = committed(bootstrapServers).get(partition);
        return offset == null ? -1 : offset.offset();
    }

    private static Map<TopicPartition, OffsetAndMetadata> committed(String bootstrapServers) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            return admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } catch (ExecutionException e) {
            throw new AssertionError(e);
        }
    }
}
