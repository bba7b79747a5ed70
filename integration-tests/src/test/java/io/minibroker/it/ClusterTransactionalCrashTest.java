package io.minibroker.it;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Exactly-once through a kill -9 in a three-node cluster of broker processes (docs/cluster.md's files): a
 * consume-transform-produce loop (kafka-clients 4.4.0, transaction version 2) runs while the node coordinating its
 * transactional id is killed (SIGKILL) once five transactions have committed, wherever the loop then is (or, if node
 * 0 coordinates it, the leader of an output partition: node 0 is the controller, whose death stops elections here).
 * The transaction state and the data are replicated three ways, so a new coordinator and new leaders take over; the
 * loop, or a new instance with the same transactional.id and group should it break off, finishes the input:
 * read_committed, every input's output appears exactly once, and the group's committed offsets are the input's ends.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterTransactionalCrashTest {

    private static final int INPUTS = 2_000;
    private static final String TRANSACTIONAL_ID = TransformLoop.TRANSACTIONAL_ID;
    private static final Map<String, String> OVERRIDES = Map.of(
            // A failover in seconds (MultiProcessFailoverTest's timings), not the files' tens of seconds.
            "broker.heartbeat.interval.ms", "300",
            "broker.session.timeout.ms", "3000",
            "replica.lag.time.max.ms", "4000",
            "min.insync.replicas", "2",
            "group.initial.rebalance.delay.ms", "0");

    @TempDir
    Path root;

    @Test
    void everyInputIsOutputOnceThroughAKillMinus9OfTheCoordinatorsNode() throws Exception {
        try (ClusterProcesses cluster = ClusterProcesses.start(root, OVERRIDES)) {
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("input", 3, (short) 3), new NewTopic("output", 2, (short) 3)))
                        .all().get();
                try (KafkaProducer<String, String> plain = Clients.producer(bootstrap, Map.of("acks", "all"))) {
                    for (int i = 0; i < INPUTS; i++) {
                        plain.send(new ProducerRecord<>("input", i % 3, "k" + i, "in-" + i));
                    }
                }
                TransformLoop.readyCoordinators(bootstrap);
                TransformLoop before = new TransformLoop(bootstrap, 3, 0, TxClients.IMPATIENT);
                AtomicInteger killed = new AtomicInteger(-1);
                Thread killer = new Thread(() -> {
                    try {
                        Eventually.await(() -> before.committed.get() >= 5, "five committed transactions");
                        int victim = victim(admin);
                        cluster.kill(victim);
                        killed.set(victim);
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                });
                killer.start();
                try {
                    before.run();
                } catch (RuntimeException | AssertionError e) {
                    // Broke off with the node: a new instance below takes over the transactional id and the group.
                }
                killer.join();
                assertThat(killed.get()).as("a node was killed mid-stream").isPositive();

                new TransformLoop(bootstrap, 3, 0, Map.of()).run(); // at once done if the first one finished
                TransformLoop.assertOutputOnceAndOffsetsAtEnd(bootstrap, INPUTS, 3, 2);
            } catch (Throwable e) {
                cluster.saveOutputs(Path.of("target", "crash-logs", "cluster-transactional"));
                throw e;
            }
        }
    }

    /** The node coordinating the loop's transactional id, unless it is the controller: then an output leader. */
    private static int victim(Admin admin) throws Exception {
        int coordinator = admin.describeTransactions(List.of(TRANSACTIONAL_ID)).all().get()
                .get(TRANSACTIONAL_ID).coordinatorId();
        if (coordinator != ClusterProcesses.CONTROLLER_ID) {
            return coordinator;
        }
        TopicDescription output = admin.describeTopics(List.of("output")).allTopicNames().get().get("output");
        return output.partitions().stream().map(partition -> partition.leader().id())
                .filter(leader -> leader != ClusterProcesses.CONTROLLER_ID).findFirst().orElse(2);
    }
}
