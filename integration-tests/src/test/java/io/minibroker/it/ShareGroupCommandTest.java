package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.broker.tools.KafkaToolProcess;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.tools.consumer.group.ShareGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-share-groups.sh (kafka-tools 4.3.1's ShareGroupCommand, in a child JVM) on a share group that consumed ten
 * records of partition 1 of a two-partition topic and left: each line as a Kafka 4.3.1 node printed it for the same
 * sequence (run by hand, 2026-11-29; columns compared with their padding collapsed). The share coordinator keeps the
 * start offset the share partition had when it last wrote its state, before it moved past the ten offsets that write
 * acknowledged (0, the ten stored as acknowledged past it), on both brokers; the lag is 0.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ShareGroupCommandTest {

    @TempDir
    Path logDir;

    @Test
    void listDescribeResetDeleteOffsetsAndDeleteAnswerAsOnKafka() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(logDir, TestBrokers.SHARE_HEARTBEAT_EVERY_SECOND)) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("st", 2, (short) 1), new NewTopic("other", 1, (short) 1)))
                        .all().get();
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "sg"), List.of(
                        new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                                AlterConfigOp.OpType.SET)))).all().get();
            }
            try (KafkaProducer<String, String> producer = Clients.producer(bootstrap)) {
                for (int i = 1; i <= 10; i++) {
                    producer.send(new ProducerRecord<>("st", 1, null, Integer.toString(i)));
                }
            }
            consumeAll(bootstrap, 10);

            assertThat(run(bootstrap, "--list")).containsExactly("sg");
            assertThat(run(bootstrap, "--list", "--state")).containsExactly("GROUP STATE", "sg Empty");
            assertThat(run(bootstrap, "--describe", "--group", "sg", "--offsets", "--verbose")).containsExactly(
                    "GROUP TOPIC PARTITION LEADER-EPOCH START-OFFSET LAG",
                    "sg st 0 - - -",
                    "sg st 1 0 0 0");
            assertThat(run(bootstrap, "--describe", "--group", "sg", "--members"))
                    .containsExactly("Share group 'sg' has no active members.");

            assertThat(run(bootstrap, "--reset-offsets", "--group", "sg", "--topic", "st", "--to-earliest",
                    "--execute")).containsExactly("GROUP TOPIC PARTITION NEW-OFFSET", "sg st 1 0", "sg st 0 0");
            assertThat(run(bootstrap, "--describe", "--group", "sg", "--offsets")).containsExactly(
                    "GROUP TOPIC PARTITION START-OFFSET LAG", "sg st 0 0 0", "sg st 1 0 10");
            assertThat(run(bootstrap, "--reset-offsets", "--group", "sg", "--topic", "st:0", "--to-datetime",
                    "2020-01-01T00:00:00.000", "--execute")).containsExactly(
                    "Warn: Partition 0 from topic st is empty. Falling back to latest known offset.",
                    "GROUP TOPIC PARTITION NEW-OFFSET", "sg st 0 0");

            assertThat(run(bootstrap, "--delete-offsets", "--group", "sg", "--topic", "st"))
                    .containsExactly("TOPIC STATUS", "st Successful");
            assertThat(run(bootstrap, "--delete-offsets", "--group", "sg", "--topic", "other"))
                    .containsExactly("TOPIC STATUS", "other Error: There is no offset information to delete.");
            assertThat(run(bootstrap, "--describe", "--group", "sg", "--offsets"))
                    .containsExactly("Share group 'sg' has no offset information.");
            assertThat(run(bootstrap, "--delete", "--group", "sg"))
                    .containsExactly("Deletion of requested share groups ('sg') was successful.");
            assertThat(run(bootstrap, "--delete", "--group", "nosuch")).containsExactly(
                    "Error: Deletion of some share groups failed:",
                    "* Group 'nosuch' could not be deleted due to: java.lang.IllegalArgumentException: Group 'nosuch' "
                            + "is not a share group.");
            assertThat(run(bootstrap, "--list")).isEmpty();
        }
    }

    /**
     * A share consumer takes the {@code count} records of partition 1 in one poll, acknowledges them in one write and
     * leaves the group. That makes the describe's rows independent of when the tool runs after it, so no wait comes
     * between: (1) the records are all below the high watermark before the consumer's first ShareFetch (the producer
     * closed once each was acknowledged), so the fetch that finds the share partition loaded acquires all of them,
     * far fewer than its MaxRecords and bytes, and one poll returns them (asserted); (2) commitSync's ShareAcknowledge
     * is answered once the write of that state counts in {@code __share_group_state} (SharePartitionManager
     * .acknowledge), without error (asserted): start offset 0, as the snapshot is taken before the start offset
     * moves, with the ten acknowledged above it; (3) nothing writes the state of either partition after that: the
     * leave and the session's end release nothing (no record is acquired, there are no more), a release of nothing
     * writes nothing, a load writes nothing, and the start offset's move past the ten stays in memory until a next
     * write that never comes. Partition 0's state is the initialization (start offset -1), which counted before the
     * partition was assigned, so before any fetch; nothing was acquired there.
     */
    private static void consumeAll(String bootstrap, int count) {
        try (KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap, ConsumerConfig.GROUP_ID_CONFIG, "sg"),
                new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of("st"));
            List<String> values = new ArrayList<>();
            Eventually.await(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(record -> values.add(record.value()));
                return !values.isEmpty();
            }, "the share consumer to take records");
            assertThat(values).as("every record from the first fetch").hasSize(count);
            assertThat(consumer.commitSync()).as("partition 1's acknowledgements, written").hasSize(1)
                    .allSatisfy((partition, error) -> assertThat(error).as(partition.toString()).isEmpty());
        }
    }

    /**
     * The tool's lines on its standard output and error together (it prints its notes and errors on the latter, and
     * exits 0 either way, as on Kafka), empty ones left out, each with its columns' padding collapsed to one space.
     */
    private static List<String> run(String bootstrap, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        command.addAll(List.of(args));
        Process process = KafkaToolProcess.processBuilder(KafkaTool.classPathWith("kafka.tools.clients.jar"),
                ShareGroupCommand.class, command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("kafka-share-groups " + command + " ended").isTrue();
        assertThat(process.exitValue()).as("exit of kafka-share-groups " + command + ": " + output).isZero();
        return output.lines().map(String::strip).filter(line -> !line.isEmpty())
                .map(line -> line.replaceAll(" {2,}", " ")).toList();
    }
}
