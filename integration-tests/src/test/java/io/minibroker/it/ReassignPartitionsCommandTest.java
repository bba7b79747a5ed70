package io.minibroker.it;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.tools.reassign.ReassignPartitionsCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-reassign-partitions.sh (kafka-tools 4.3.1, in a child JVM as the script runs it) on a three-node cluster:
 * --generate proposes a move of a topic off node 0, --execute starts it (AlterPartitionReassignments), --verify
 * follows it (ListPartitionReassignments and the topic's replicas) until every partition is done; the replicas are
 * then the proposal's, and a consumer reads every record acknowledged before and during the move from them.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ReassignPartitionsCommandTest {

    private static final String TOPIC = "reassigned";
    private static final int PARTITIONS = 3;

    @TempDir
    Path dir;

    @Test
    void generateExecuteAndVerifyMoveATopicOffANodeWithItsRecords() throws Exception {
        try (MiniCluster cluster = MiniCluster.start(3, Map.of("broker.heartbeat.interval.ms", "100",
                "replica.lag.time.max.ms", "3000"))) {
            Eventually.await(() -> cluster.controller().membership().liveBrokers().size() == 3, "three live brokers");
            String bootstrap = cluster.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic(TOPIC, PARTITIONS, (short) 2))).all().get();
            }
            List<String> acknowledged = new ArrayList<>(produce(bootstrap, 0, 300));

            Path topics = Files.writeString(dir.resolve("topics.json"),
                    "{\"topics\":[{\"topic\":\"" + TOPIC + "\"}],\"version\":1}");
            String generated = KafkaTool.run(ReassignPartitionsCommand.class, "--bootstrap-server", bootstrap,
                    "--generate", "--topics-to-move-json-file", topics.toString(), "--broker-list", "1,2");
            assertThat(generated).contains("Current partition replica assignment")
                    .contains("Proposed partition reassignment configuration");
            String proposal = jsonAfter(generated, "Proposed partition reassignment configuration");
            Path plan = Files.writeString(dir.resolve("plan.json"), proposal);

            String executed = KafkaTool.run(ReassignPartitionsCommand.class, "--bootstrap-server", bootstrap,
                    "--execute", "--reassignment-json-file", plan.toString());
            assertThat(executed).contains("Successfully started partition reassignment");
            acknowledged.addAll(produce(bootstrap, 300, 600));

            List<String> verified = new ArrayList<>();
            Eventually.await(() -> {
                try {
                    verified.clear();
                    verified.addAll(KafkaTool.run(ReassignPartitionsCommand.class, "--bootstrap-server", bootstrap,
                            "--verify", "--reassignment-json-file", plan.toString()).lines().toList());
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
                return verified.stream().filter(line -> line.matches("Reassignment of partition " + TOPIC
                        + "-\\d is completed\\.")).count() == PARTITIONS;
            }, () -> "every partition's reassignment to complete: " + verified);

            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                for (TopicPartitionInfo partition : admin.describeTopics(List.of(TOPIC)).allTopicNames().get()
                        .get(TOPIC).partitions()) {
                    List<Integer> replicas = partition.replicas().stream().map(Node::id).toList();
                    assertThat(proposal).as("partition " + partition.partition() + " on " + replicas)
                            .contains("\"partition\":" + partition.partition() + ",\"replicas\":"
                                    + replicas.toString().replace(" ", ""));
                    assertThat(replicas).doesNotContain(0);
                }
                assertThat(admin.listPartitionReassignments().reassignments().get()).isEmpty();
            }
            List<TopicPartition> partitions = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++) {
                partitions.add(new TopicPartition(TOPIC, p));
            }
            assertThat(Clients.readValues(bootstrap, partitions, acknowledged.size()))
                    .containsExactlyInAnyOrderElementsOf(acknowledged);
        }
    }

    /** The JSON line the tool printed after this heading. */
    private static String jsonAfter(String output, String heading) {
        List<String> lines = output.lines().toList();
        for (int i = lines.indexOf(heading) + 1; i < lines.size(); i++) {
            if (lines.get(i).startsWith("{")) {
                return lines.get(i);
            }
        }
        throw new AssertionError("no JSON after '" + heading + "' in " + output);
    }

    /** Sends values from..to-1 round the partitions with acks=all; the values acknowledged. */
    private static List<String> produce(String bootstrap, int from, int to) throws Exception {
        List<String> acknowledged = new ArrayList<>();
        try (KafkaProducer<String, String> producer = Clients.producer(bootstrap, Map.of(ProducerConfig.ACKS_CONFIG,
                "all", ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000))) {
            for (int i = from; i < to; i++) {
                producer.send(new ProducerRecord<>(TOPIC, i % PARTITIONS, null, "v" + i)).get();
                acknowledged.add("v" + i);
            }
        }
        return acknowledged;
    }
}
