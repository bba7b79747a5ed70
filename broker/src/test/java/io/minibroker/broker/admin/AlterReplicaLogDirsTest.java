package io.minibroker.broker.admin;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsRequestView;
import io.minibroker.protocol.message.view.AlterReplicaLogDirsResponseView;
import io.minibroker.purgatory.time.ManualClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.LogDirNotFoundException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterReplicaLogDirs as Kafka 4.3.1's ReplicaManager.alterReplicaLogDirs answers it, through kafka-clients' Admin
 * and on the wire: the directory a replica is already in NONE at once (kafka-python's test_alter_replica_log_dirs),
 * a path not among {@code log.dirs} LOG_DIR_NOT_FOUND (compared as absolute paths, as text), a partition of a topic
 * that does not exist UNKNOWN_TOPIC_OR_PARTITION (as a single Kafka 4.3.1 node answered) and created later in that
 * directory, a configured directory that is no longer a directory KAFKA_STORAGE_ERROR, a topic name too long for the future
 * directory's name INVALID_TOPIC_EXCEPTION, a partition named twice answered once; and a move seen through
 * DescribeLogDirs. The ACL check is in authz/AdminAclsTest, the move itself in log/LogDirMoveTest.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AlterReplicaLogDirsTest {

    @TempDir
    Path dirA;
    @TempDir
    Path dirB;

    private Broker start() throws Exception {
        return TestBrokers.start(dirA, Map.of("log.dirs", dirA + "," + dirB, "log.segment.delete.delay.ms", "0"));
    }

    @Test
    void answersEachPartitionAsKafkaAndMovesAReplica() throws Exception {
        try (Broker broker = start(); Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
            String a = dirA.toAbsolutePath().toString();
            String b = dirB.toAbsolutePath().toString();
            String current = dirOf(admin, "orders");
            assertThat(current).isEqualTo(a);

            admin.alterReplicaLogDirs(Map.of(replica("orders", 0), a)).all().get(); // where it is: NONE
            assertThat(dirOf(admin, "orders")).isEqualTo(a);

            assertFails(admin, replica("orders", 0), b + "/../" + dirB.getFileName(), LogDirNotFoundException.class);
            assertFails(admin, replica("orders", 0), "/no/such/dir", LogDirNotFoundException.class);
            assertFails(admin, replica("ghost", 0), b, UnknownTopicOrPartitionException.class);
            assertFails(admin, replica("t".repeat(220), 0), b, InvalidTopicException.class);

            // A replica named before it exists goes where it was asked to (here where the least loaded would not).
            admin.createTopics(List.of(new NewTopic("filler", 1, (short) 1))).all().get(); // in B: now A has fewer
            assertFails(admin, replica("ghost", 0), b, UnknownTopicOrPartitionException.class);
            admin.createTopics(List.of(new NewTopic("ghost", 1, (short) 1))).all().get();
            assertThat(dirOf(admin, "ghost")).isEqualTo(b);

            // A directory that is no longer one (Kafka's offline directory): KAFKA_STORAGE_ERROR.
            Path away = dirB.resolveSibling(dirB.getFileName() + "-away");
            Files.move(dirB, away);
            Files.createFile(dirB);
            assertFails(admin, replica("orders", 0), b, KafkaStorageException.class);
            Files.delete(dirB);
            Files.move(away, dirB);

            admin.alterReplicaLogDirs(Map.of(replica("orders", 0), b)).all().get();
            await(() -> b.equals(dirOfNow(admin, "orders")), "orders-0 moved to B, no future replica left");
            assertThat(Files.exists(dirB.resolve("orders-0"))).isTrue();
            await(() -> !Files.exists(dirA.resolve("orders-0")), "the old directory deleted");
        }
    }

    @Test
    void aMovesCopyIsHeldToReplicaAlterLogDirsIoMaxBytesPerSecondOnTheBrokersClock() throws Exception {
        ManualClock clock = new ManualClock();
        Map<String, String> config = Map.of("log.dirs", dirA + "," + dirB, "log.segment.delete.delay.ms", "0",
                "alter.log.dirs.replication.quota.window.num", "2", "replica.fetch.backoff.ms", "5");
        try (Broker broker = TestBrokers.start(dirA, config, clock); Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1)
                    .configs(Map.of("segment.bytes", Integer.toString(1 << 20))))).all().get();
            int records = 2_500; // 1 KB each: three segments
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT")),
                    new StringSerializer(), new StringSerializer())) {
                for (int i = 0; i < records; i++) {
                    producer.send(new ProducerRecord<>("orders", 0, null, "x".repeat(1_000)));
                }
                producer.flush();
            }
            ConfigResource brokerConfig = new ConfigResource(ConfigResource.Type.BROKER, "1");
            String rateKey = "replica.alter.log.dirs.io.max.bytes.per.second";
            admin.incrementalAlterConfigs(Map.of(brokerConfig, List.of(new AlterConfigOp(new ConfigEntry(rateKey, "1"),
                    AlterConfigOp.OpType.SET)))).all().get();

            admin.alterReplicaLogDirs(Map.of(replica("orders", 0), dirB.toAbsolutePath().toString())).all().get();
            await(AlterReplicaLogDirsTest::theMoverWaitsForItsThrottle, "the copy held after its first chunk");
            List<Path> segmentLogs;
            try (Stream<Path> files = Files.list(dirA.resolve("orders-0"))) {
                segmentLogs = files.filter(file -> file.toString().endsWith(".log")).sorted().toList();
            }
            assertThat(segmentLogs).as("two closed segments and the active one").hasSize(3);
            assertThat(logBytesInFutureReplica()).as("one chunk copied while the clock stands: the first segment's log")
                    .isEqualTo(Files.size(segmentLogs.get(0)));
            assertThat(Files.isDirectory(dirB.resolve("orders-0"))).as("not moved yet").isFalse();
            assertThat(broker.meterRegistry().get("kafka.server.alterlogdirsreplication.byte.rate").gauge().value())
                    .as("Kafka's AlterLogDirsReplication byte-rate: the chunk over one 1 s window")
                    .isEqualTo((double) Files.size(segmentLogs.get(0)));

            // The windows holding the last chunk gone, one chunk more: the next segment's log (the indexes are not
            // counted, as Kafka's future replica writes its own), then the active segment's, after which the copy
            // waits for the throttle before it takes the log's lock (Kafka's future replica is throttled until the
            // swap).
            for (int step = 1; step < 3; step++) {
                long before = logBytesInFutureReplica();
                clock.advance(2_000);
                await(() -> logBytesInFutureReplica() > before && theMoverWaitsForItsThrottle(),
                        "one more chunk copied");
                assertThat(logBytesInFutureReplica() - before).as("one chunk: the next segment's log")
                        .isEqualTo(Files.size(segmentLogs.get(step)));
            }

            // Taken off dynamically: the copy goes on at once, the clock standing.
            admin.incrementalAlterConfigs(Map.of(brokerConfig, List.of(new AlterConfigOp(new ConfigEntry(rateKey, ""),
                    AlterConfigOp.OpType.DELETE)))).all().get();
            await(() -> dirB.toAbsolutePath().toString().equals(dirOfNow(admin, "orders")), "the move's end");
            assertThat(logBytesInFutureReplica()).as("no future directory left").isEqualTo(-1);
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                    ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                    ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, "0"), new StringDeserializer(), // none parked: the clock stands
                    new StringDeserializer())) {
                consumer.assign(List.of(new org.apache.kafka.common.TopicPartition("orders", 0)));
                List<String> values = new ArrayList<>();
                await(() -> {
                    consumer.poll(Duration.ofMillis(100)).forEach(record -> values.add(record.value()));
                    return values.size() >= records;
                }, "every record read from the moved log");
                assertThat(values).hasSize(records);
            }
        }
    }

    @Test
    void aPartitionNamedUnderTwoDirectoriesIsAnsweredOnceForTheLast() throws Exception {
        try (Broker broker = start(); RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            AlterReplicaLogDirsRequestView request = new AlterReplicaLogDirsRequestView();
            request.addDir().path("/no/such/dir").addTopic().name("ghost").partitions(List.of(0, 1));
            request.addDir().path(dirB.toAbsolutePath().toString()).addTopic().name("ghost").partitions(List.of(1));
            client.send(RawClient.request(ApiKey.ALTER_REPLICA_LOG_DIRS, (short) 2, 1, request.struct()));
            AlterReplicaLogDirsResponseView response = new AlterReplicaLogDirsResponseView(
                    client.receive(ApiKey.ALTER_REPLICA_LOG_DIRS, (short) 2).body());
            assertThat(response.results()).singleElement().satisfies(topic -> {
                assertThat(topic.topicName()).isEqualTo("ghost");
                assertThat(topic.partitions()).extracting(p -> p.partitionIndex() + ":" + p.errorCode())
                        .containsExactly("0:" + Errors.LOG_DIR_NOT_FOUND.code(),
                                "1:" + Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            });
        }
    }

    /** Whether the broker's log-dir-mover thread is waiting for its throttle (FutureLog's wait between chunks). */
    private static boolean theMoverWaitsForItsThrottle() {
        return Thread.getAllStackTraces().entrySet().stream()
                .anyMatch(thread -> thread.getKey().getName().equals("log-dir-mover")
                        && Arrays.stream(thread.getValue()).anyMatch(frame -> frame.getMethodName().equals(
                                "awaitThrottle")));
    }

    /** The bytes of the segments' logs in B's future directory of orders-0 ({@code orders-0.<id>-future}); -1 if none. */
    private long logBytesInFutureReplica() {
        try (Stream<Path> dirs = Files.list(dirB)) {
            Path future = dirs.filter(dir -> dir.getFileName().toString().matches("orders-0\\.[0-9a-f]+-future"))
                    .findFirst().orElse(null);
            if (future == null) {
                return -1;
            }
            try (Stream<Path> files = Files.list(future)) {
                return files.filter(file -> file.toString().endsWith(".log")).mapToLong(file -> file.toFile().length())
                        .sum();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static TopicPartitionReplica replica(String topic, int partition) {
        return new TopicPartitionReplica(topic, partition, 1);
    }

    private static void assertFails(Admin admin, TopicPartitionReplica replica, String dir,
                                    Class<? extends Throwable> error) {
        assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(replica, dir)).all().get())
                .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(error);
    }

    /** The one directory holding the topic's partition 0; fails if a future replica is listed too. */
    private static String dirOf(Admin admin, String topic) throws Exception {
        Map<String, LogDirDescription> dirs = admin.describeLogDirs(List.of(1)).allDescriptions().get().get(1);
        List<String> holding = dirs.entrySet().stream()
                .filter(dir -> dir.getValue().replicaInfos().containsKey(new org.apache.kafka.common.TopicPartition(
                        topic, 0)))
                .map(Map.Entry::getKey).toList();
        assertThat(holding).hasSize(1);
        ReplicaInfo info = dirs.get(holding.get(0)).replicaInfos().get(
                new org.apache.kafka.common.TopicPartition(topic, 0));
        assertThat(info.isFuture()).isFalse();
        return holding.get(0);
    }

    private static String dirOfNow(Admin admin, String topic) {
        try {
            return dirOf(admin, topic);
        } catch (Exception | AssertionError e) {
            return null;
        }
    }
}
