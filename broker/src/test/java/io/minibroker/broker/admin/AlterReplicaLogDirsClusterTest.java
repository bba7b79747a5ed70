package io.minibroker.broker.admin;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.minibroker.broker.embedded.MiniCluster;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.LogDirDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ReplicaInfo;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionReplica;
import org.apache.kafka.common.errors.ReplicaNotAvailableException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * AlterReplicaLogDirs in a cluster of three, each node with two log dirs: a follower's replica, then the leader's,
 * moves to its node's other directory while a producer (acks=all) goes on; every acknowledged record is read back in
 * order afterwards, and the moved follower is back in the ISR.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AlterReplicaLogDirsClusterTest {
    private static final TopicPartition TP = new TopicPartition("orders", 0);

    @TempDir
    Path secondDirs;

    @Test
    void aFollowersAndTheLeadersReplicaMoveWhileProducesAndReplicationGoOn() throws Exception {
        MiniCluster cluster = MiniCluster.start(3, Map.of(),
                id -> Map.of("log.dirs", secondDirs.resolve("a-" + id) + "," + secondDirs.resolve("b-" + id)));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger acknowledged = new AtomicInteger();
        List<Throwable> failures = new ArrayList<>();
        try (Admin admin = admin(cluster)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 3))).all().get();
            Thread producer = new Thread(() -> {
                try (KafkaProducer<String, String> kafka = new KafkaProducer<>(Map.of(
                        "bootstrap.servers", bootstrap(cluster), "acks", "all",
                        "key.serializer", StringSerializer.class.getName(),
                        "value.serializer", StringSerializer.class.getName()))) {
                    for (int n = 0; !stop.get(); n++) {
                        kafka.send(new ProducerRecord<>("orders", "v" + n)).get();
                        acknowledged.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            });
            producer.start();
            await(() -> acknowledged.get() > 500, "records acknowledged");
            TopicDescription description = admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
            int leader = description.partitions().get(0).leader().id();
            int follower = description.partitions().get(0).replicas().stream().mapToInt(node -> node.id())
                    .filter(id -> id != leader).findFirst().orElseThrow();

            for (int node : new int[] {follower, leader}) {
                String target = secondDirs.resolve("b-" + node).toAbsolutePath().toString();
                admin.alterReplicaLogDirs(Map.of(new TopicPartitionReplica("orders", 0, node), target)).all().get();
                int before = acknowledged.get();
                await(() -> target.equals(currentDir(admin, node)), "node " + node + "'s replica moved");
                await(() -> acknowledged.get() > before + 200, "records acknowledged after the move");
            }
            stop.set(true);
            producer.join();
            assertThat(failures).isEmpty();
            await(() -> isrSize(admin) == 3, "every replica in the ISR");

            int read = 0;
            try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                    "bootstrap.servers", bootstrap(cluster), "auto.offset.reset", "earliest",
                    "key.deserializer", StringDeserializer.class.getName(),
                    "value.deserializer", StringDeserializer.class.getName()))) {
                consumer.assign(List.of(TP));
                while (read < acknowledged.get()) {
                    for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                        assertThat(record.value()).isEqualTo("v" + read);
                        read++;
                    }
                }
            }
            assertThat(read).isEqualTo(acknowledged.get());
        } finally {
            stop.set(true);
            cluster.close();
        }
    }

    /**
     * Kafka's ReplicaManager answers NOT_LEADER_OR_FOLLOWER, sent as REPLICA_NOT_AVAILABLE, for a partition its
     * metadata has and of which it holds no replica, whether the partition has a leader or not (metadataCache
     * contains it); UNKNOWN_TOPIC_OR_PARTITION is only for one the metadata does not have.
     */
    @Test
    void aNodeWithoutAReplicaOfAPartitionTheMetadataHasAnswersReplicaNotAvailableLedOrNot() throws Exception {
        MiniCluster cluster = MiniCluster.start(2, Map.of(),
                id -> Map.of("log.dirs", secondDirs.resolve("a-" + id) + "," + secondDirs.resolve("b-" + id)));
        try (Admin admin = admin(cluster)) {
            await(() -> liveNodes(admin) == 2, "both nodes unfenced, as a topic assigned to node 1 needs");
            admin.createTopics(List.of(new NewTopic("solo", Map.of(0, List.of(1))))).all().get();
            TopicPartitionReplica onNode0 = new TopicPartitionReplica("solo", 0, 0);
            String dir = secondDirs.resolve("b-0").toAbsolutePath().toString();
            await(() -> leaderAsNode0Has(admin) == 1, "node 0's metadata with solo-0 led by node 1");
            assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(onNode0, dir)).all().get())
                    .hasCauseInstanceOf(ReplicaNotAvailableException.class);

            cluster.stop(1); // solo-0's only replica: no leader left
            await(() -> leaderAsNode0Has(admin) == -1, "node 0's metadata with solo-0 leaderless");
            assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(onNode0, dir)).all().get())
                    .hasCauseInstanceOf(ReplicaNotAvailableException.class);
            assertThatThrownBy(() -> admin.alterReplicaLogDirs(Map.of(new TopicPartitionReplica("solo", 1, 0), dir))
                    .all().get()).as("a partition the topic does not have")
                    .hasCauseInstanceOf(UnknownTopicOrPartitionException.class);
        } finally {
            cluster.close();
        }
    }

    private static int liveNodes(Admin admin) {
        try {
            return admin.describeCluster().nodes().get().size();
        } catch (Exception e) {
            return -1;
        }
    }

    /** solo-0's leader as node 0 answers Metadata (-1: none), or -2 while it cannot be read. */
    private static int leaderAsNode0Has(Admin admin) {
        try {
            Node leader = admin.describeTopics(List.of("solo")).allTopicNames().get().get("solo").partitions().get(0)
                    .leader();
            return leader == null ? -1 : leader.id();
        } catch (Exception e) {
            return -2;
        }
    }

    /** The directory holding the node's current replica of orders-0, once no future replica is listed; else null. */
    private static String currentDir(Admin admin, int node) {
        try {
            String found = null;
            for (Map.Entry<String, LogDirDescription> dir : admin.describeLogDirs(List.of(node)).allDescriptions()
                    .get().get(node).entrySet()) {
                ReplicaInfo info = dir.getValue().replicaInfos().get(TP);
                if (info != null && info.isFuture()) {
                    return null;
                }
                if (info != null) {
                    found = dir.getKey();
                }
            }
            return found;
        } catch (Exception e) {
            return null;
        }
    }

    private static int isrSize(Admin admin) {
        try {
            return admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders").partitions().get(0)
                    .isr().size();
        } catch (Exception e) {
            return -1;
        }
    }

    private static String bootstrap(MiniCluster cluster) {
        return "localhost:" + cluster.node(0).boundPort("PLAINTEXT");
    }

    private static Admin admin(MiniCluster cluster) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap(cluster)));
    }
}
