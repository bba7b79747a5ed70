package io.minibroker.it;

import io.minibroker.broker.embedded.MiniCluster;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry.ConfigSource;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
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
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-reassign-partitions.sh (kafka-tools 4.3.1, in a child JVM as the script runs it) on a three-node cluster:
 * --generate proposes a move of a topic off node 0, --execute starts it (AlterPartitionReassignments), --verify
 * follows it (ListPartitionReassignments and the topic's replicas) until every partition is done; the replicas are
 * then the proposal's, and a consumer reads every record acknowledged before and during the move from them. The
 * move runs with {@code --throttle}: the topic's throttled-replica lists and every broker's rates are set by the
 * tool as it starts the move, and cleared by the {@code --verify} that sees it done.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class ReassignPartitionsCommandTest {

    private static final String TOPIC = "reassigned";
    private static final int PARTITIONS = 3;
    /** High enough not to slow the move down: the point is the configs the tool sets and clears. */
    private static final String THROTTLE = "50000000";
    private static final List<String> THROTTLED_REPLICAS = List.of("leader.replication.throttled.replicas",
            "follower.replication.throttled.replicas");

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
                    "--execute", "--reassignment-json-file", plan.toString(), "--throttle", THROTTLE);
            assertThat(executed).contains("Successfully started partition reassignment")
                    .contains("Warning: You must run --verify periodically, until the reassignment completes, to "
                            + "ensure the throttle is removed.");
            // The throttles the tool set (KIP-73): the moving partitions' replicas named on the topic, the rate on
            // every broker of the move (each answers for its own configs).
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                // Any node answers for a topic's configs from its copy of the image, which may not have the tool's
                // change yet (only the node the tool asked fetched it before answering): awaited, as Kafka's would be.
                Config topicConfig = awaitTopicThrottles(admin, ConfigSource.DYNAMIC_TOPIC_CONFIG);
                for (String key : THROTTLED_REPLICAS) {
                    assertThat(topicConfig.get(key).value()).as(key).matches("\\d+:\\d+(,\\d+:\\d+)*");
                }
                for (int broker = 0; broker < 3; broker++) {
                    Config brokerConfig = describe(admin, brokerResource(broker));
                    for (String key : List.of("leader.replication.throttled.rate",
                            "follower.replication.throttled.rate")) {
                        assertThat(brokerConfig.get(key).source()).as(key + " on node " + broker)
                                .isEqualTo(ConfigSource.DYNAMIC_BROKER_CONFIG);
                    }
                }
            }
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

            // The --verify that saw every partition done cleared the throttles.
            assertThat(verified).anyMatch(line -> line.startsWith("Clearing broker-level throttles on broker"))
                    .anyMatch(line -> line.startsWith("Clearing topic-level throttles on topic " + TOPIC));
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                awaitTopicThrottles(admin, ConfigSource.DEFAULT_CONFIG);
                for (int broker = 0; broker < 3; broker++) {
                    int node = broker;
                    Eventually.await(() -> describeNow(admin, brokerResource(node)).entries().stream()
                            .filter(entry -> entry.name().endsWith(".replication.throttled.rate"))
                            .noneMatch(entry -> entry.source() == ConfigSource.DYNAMIC_BROKER_CONFIG),
                            "node " + node + "'s copy of the image without the rates");
                }
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

    /**
     * Waits until a node the Admin asks shows both of the topic's throttled-replica lists from {@code source}; the
     * topic's configs as that node showed them.
     */
    private static Config awaitTopicThrottles(Admin admin, ConfigSource source) {
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, TOPIC);
        AtomicReference<Config> seen = new AtomicReference<>();
        Eventually.await(() -> {
            seen.set(describeNow(admin, topic));
            return THROTTLED_REPLICAS.stream().allMatch(key -> seen.get().get(key).source() == source);
        }, () -> "the topic's throttled replicas from " + source + ": " + seen.get());
        return seen.get();
    }

    private static ConfigResource brokerResource(int node) {
        return new ConfigResource(ConfigResource.Type.BROKER, Integer.toString(node));
    }

    private static Config describe(Admin admin, ConfigResource resource) throws Exception {
        return admin.describeConfigs(List.of(resource)).all().get().get(resource);
    }

    private static Config describeNow(Admin admin, ConfigResource resource) {
        try {
            return describe(admin, resource);
        } catch (Exception e) {
            throw new AssertionError(e);
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
