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
