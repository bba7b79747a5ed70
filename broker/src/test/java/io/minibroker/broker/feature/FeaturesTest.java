package io.minibroker.broker.feature;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.FeatureMetadata;
import org.apache.kafka.clients.admin.FeatureUpdate;
import org.apache.kafka.clients.admin.FinalizedVersionRange;
import org.apache.kafka.clients.admin.SupportedVersionRange;
import org.apache.kafka.clients.admin.UpdateFeaturesOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InvalidUpdateVersionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The finalized features of a single node, as kafka-clients' AdminClient describes and updates them: equal to a
 * Kafka 4.3.1 node's at its defaults (ranges and levels read from one), UpdateFeatures refused with its messages,
 * kept across a restart, and a changed {@code transaction.version} followed by the transaction coordinator.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class FeaturesTest {

    private static final String REFUSED = "The update failed for all features since the following feature had an"
            + " error: ";

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() throws Exception {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void describeFeaturesAnswersAsAKafka431NodeAtItsDefaults() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get();

            Map<String, List<Short>> supported = new TreeMap<>();
            features.supportedFeatures().forEach((name, range) -> supported.put(name, range(range)));
            assertThat(supported).isEqualTo(Map.of("eligible.leader.replicas.version", List.of((short) 0, (short) 1),
                    "group.version", List.of((short) 0, (short) 1), "kraft.version", List.of((short) 0, (short) 1),
                    "metadata.version", List.of((short) 7, (short) 30), "share.version", List.of((short) 0, (short) 1),
                    "streams.version", List.of((short) 0, (short) 1),
                    "transaction.version", List.of((short) 0, (short) 2)));
            Map<String, Short> finalized = new TreeMap<>();
            features.finalizedFeatures().forEach((name, range) -> finalized.put(name, level(range)));
            assertThat(finalized).as("kraft.version at 0: not finalized").isEqualTo(Map.of(
                    "eligible.leader.replicas.version", (short) 1, "group.version", (short) 1,
                    "metadata.version", (short) 30, "share.version", (short) 1, "streams.version", (short) 1,
                    "transaction.version", (short) 2));
            assertThat(features.finalizedFeaturesEpoch()).isPresent();
        }
    }

    @Test
    void updatesAreRefusedWithKafkasMessages() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            assertRefused(admin, Map.of("foo", upgrade(1)),
                    "Invalid update version 1 for feature foo. Local controller 1 does not support this feature.");
            assertRefused(admin, Map.of("foo", new FeatureUpdate((short) 0, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                    "Invalid update version 0 for feature foo. Feature foo not found.");
            assertRefused(admin, Map.of("transaction.version", upgrade(3)),
                    "Invalid update version 3 for feature transaction.version. Local controller 1 only supports"
                            + " versions 0-2");
            assertRefused(admin, Map.of("transaction.version", upgrade(1)),
                    "Invalid update version 1 for feature transaction.version. Can't downgrade the version of this"
                            + " feature without setting the upgrade type to either safe or unsafe downgrade.");
            assertRefused(admin, Map.of("kraft.version", upgrade(1), "transaction.version",
                            new FeatureUpdate((short) 2, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE),
                            "group.version", upgrade(2)),
                    "Invalid update version 2 for feature group.version. Local controller 1 only supports versions"
                            + " 0-1");
            // Of two refusals the one Kafka's controller meets first in its HashMap of the names, not the first by name.
            assertRefused(admin, Map.of("foo.version", upgrade(1), "share.version", upgrade(5)),
                    "Invalid update version 5 for feature share.version. Local controller 1 only supports versions"
                            + " 0-1");
            assertRefused(admin, Map.of("metadata.version",
                            new FeatureUpdate((short) 29, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                    "Unsupported metadata.version downgrade from 30 to 29. Refusing to perform the requested"
                            + " downgrade because it might delete metadata information.");
            assertRefused(admin, Map.of("metadata.version",
                            new FeatureUpdate((short) 29, FeatureUpdate.UpgradeType.UNSAFE_DOWNGRADE)),
                    "Unsupported metadata.version downgrade from 30 to 29. Unsafe metadata downgrade is not supported"
                            + " in this version.");
            assertRefused(admin, Map.of("group.version", new FeatureUpdate((short) 1,
                    FeatureUpdate.UpgradeType.SAFE_DOWNGRADE), "kraft.version", new FeatureUpdate((short) 1,
                    FeatureUpdate.UpgradeType.SAFE_DOWNGRADE)),
                    "Invalid update version 1 for feature kraft.version. Can't downgrade to a newer version.");

            admin.updateFeatures(Map.of("transaction.version", safeDowngrade(0)),
                    new UpdateFeaturesOptions().validateOnly(true)).all().get();
            assertThat(finalizedLevels(admin)).as("validateOnly changes nothing")
                    .containsEntry("transaction.version", (short) 2);
        }
    }

    @Test
    void aDowngradeIsFinalizedKeptAcrossARestartAndFollowedByTheTransactionCoordinator() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        long epochBefore;
        try (Admin admin = TestBrokers.admin(broker)) {
            epochBefore = admin.describeFeatures().featureMetadata().get().finalizedFeaturesEpoch().orElseThrow();
            admin.updateFeatures(Map.of("transaction.version", safeDowngrade(0),
                    "streams.version", safeDowngrade(0)), new UpdateFeaturesOptions()).all().get();
        }
        broker.close();
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            FeatureMetadata features = admin.describeFeatures().featureMetadata().get();
            assertThat(features.finalizedFeatures()).doesNotContainKeys("transaction.version", "streams.version")
                    .containsKey("group.version");
            assertThat(features.finalizedFeaturesEpoch()).hasValueSatisfying(
                    epoch -> assertThat(epoch).isGreaterThan(epochBefore));
        }
        // Transaction version 0: the coordinator writes its records at value version 0, where 1 and 2 write 1.
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "after-downgrade"),
                new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>("orders", "k", "v")).get();
            producer.commitTransaction();
        }
        assertThat(transactionStateValueVersions()).isNotEmpty().containsOnly((short) 0);
    }

    private List<Short> transactionStateValueVersions() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap()),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            int partitions = consumer.partitionsFor("__transaction_state").size();
            List<TopicPartition> all = IntStream.range(0, partitions)
                    .mapToObj(p -> new TopicPartition("__transaction_state", p)).toList();
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<TopicPartition, Long> ends = consumer.endOffsets(all);
            List<Short> versions = new ArrayList<>();
            while (all.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofSeconds(1))) {
                    if (record.value() != null) {
                        versions.add(ByteBuffer.wrap(record.value()).getShort());
                    }
                }
            }
            return versions;
        }
    }

    private String bootstrap() {
        return "localhost:" + broker.boundPort("PLAINTEXT");
    }

    private static void assertRefused(Admin admin, Map<String, FeatureUpdate> updates, String reason) {
        for (boolean validateOnly : new boolean[] {true, false}) {
            assertThatThrownBy(() -> admin.updateFeatures(updates,
                    new UpdateFeaturesOptions().validateOnly(validateOnly)).all().get())
                    .isInstanceOf(ExecutionException.class).cause()
                    .isInstanceOf(InvalidUpdateVersionException.class).hasMessage(REFUSED + reason);
        }
    }

    private static Map<String, Short> finalizedLevels(Admin admin) throws Exception {
        Map<String, Short> levels = new TreeMap<>();
        admin.describeFeatures().featureMetadata().get().finalizedFeatures()
                .forEach((name, range) -> levels.put(name, level(range)));
        return levels;
    }

    private static FeatureUpdate upgrade(int level) {
        return new FeatureUpdate((short) level, FeatureUpdate.UpgradeType.UPGRADE);
    }

    private static FeatureUpdate safeDowngrade(int level) {
        return new FeatureUpdate((short) level, FeatureUpdate.UpgradeType.SAFE_DOWNGRADE);
    }

    private static List<Short> range(SupportedVersionRange range) {
        return List.of(range.minVersion(), range.maxVersion());
    }

    private static short level(FinalizedVersionRange range) {
        assertThat(range.minVersionLevel()).isEqualTo(range.maxVersionLevel());
        return range.maxVersionLevel();
    }
}
