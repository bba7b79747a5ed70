package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.tools.ClientMetricsCommand;
import org.apache.kafka.tools.DeleteRecordsCommand;
import org.apache.kafka.tools.GetOffsetShell;
import org.apache.kafka.tools.GroupsCommand;
import org.apache.kafka.tools.consumer.group.ConsumerGroupCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-consumer-groups.sh, kafka-delete-records.sh, kafka-get-offsets.sh, kafka-groups.sh and
 * kafka-client-metrics.sh (kafka-tools 4.3.1, each in a child JVM as its script runs it) through one scenario on one
 * broker: offsets reset, described, shifted and deleted, records deleted, offsets looked up, the group listed and
 * deleted. Every expected text is what the same commands printed, step by step, against a Kafka 4.3.1 node formatted
 * with its defaults (2026-11-28; the coordinator's port apart, and trailing spaces, which the tools pad columns
 * with, left out; "Consumer group 'billing' has no active members.", which they print on standard error, too).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class GroupAndOffsetToolsCommandTest {

    private static final Class<?> GROUPS = ConsumerGroupCommand.class;

    @TempDir
    Path dir;

    @Test
    void aGroupsOffsetsAndATopicsRecordsAsKafkasToolsShowThemOnKafka() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of())) {
            String bootstrap = broker.bootstrapServers();
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
                admin.createTopics(List.of(new NewTopic("orders", 3, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap), new StringSerializer(), new StringSerializer())) {
                for (int i = 1; i <= 100; i++) {
                    producer.send(new ProducerRecord<>("orders", "k", "v" + i)); // key "k": partition 2
                }
                producer.flush();
            }

            assertThat(tool(GROUPS, bootstrap, "--reset-offsets", "--group", "billing", "--topic", "orders",
                    "--to-latest", "--execute")).isEqualTo("""

                    GROUP           TOPIC           PARTITION  NEW-OFFSET
                    billing         orders          0          0
                    billing         orders          1          0
                    billing         orders          2          100
                    """);
            assertThat(tool(GROUPS, bootstrap, "--list", "--state")).isEqualTo("""
                    GROUP                     STATE
                    billing                   Empty
                    """);
            assertThat(tool(GROUPS, bootstrap, "--describe", "--group", "billing")).isEqualTo("""

                    GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             \
                    CONSUMER-ID     HOST            CLIENT-ID
                    billing         orders          0          0               0               0               \
                    -               -               -
                    billing         orders          1          0               0               0               \
                    -               -               -
                    billing         orders          2          100             100             0               \
                    -               -               -
                    """);
            assertThat(tool(GROUPS, bootstrap, "--describe", "--group", "billing", "--state")
                    .replaceAll("localhost:\\d+ +\\(1\\) +", "localhost:PORT (1) ")).isEqualTo("""

                    GROUP           COORDINATOR (ID)          ASSIGNMENT-STRATEGY  STATE                #MEMBERS
                    billing         localhost:PORT (1) -                    Empty                0
                    """);
            assertThat(tool(GROUPS, bootstrap, "--reset-offsets", "--group", "billing", "--topic", "orders:2",
                    "--shift-by", "-30", "--execute")).isEqualTo("""

                    GROUP           TOPIC           PARTITION  NEW-OFFSET
                    billing         orders          2          70
                    """);
            assertThat(tool(GROUPS, bootstrap, "--delete-offsets", "--group", "billing", "--topic", "orders:1"))
                    .isEqualTo("""
                            Request succeeded for deleting offsets from group billing.

                            TOPIC           PARTITION  STATUS
                            orders          1          Successful
                            """);
            assertThat(tool(GROUPS, bootstrap, "--describe", "--group", "billing", "--offsets")).isEqualTo("""

                    GROUP           TOPIC           PARTITION  CURRENT-OFFSET  LOG-END-OFFSET  LAG             \
                    CONSUMER-ID     HOST            CLIENT-ID
                    billing         orders          0          0               0               0               \
                    -               -               -
                    billing         orders          2          70              100             30              \
                    -               -               -
                    """);

            Path deletion = Files.writeString(dir.resolve("delete.json"),
                    "{\"partitions\":[{\"topic\":\"orders\",\"partition\":2,\"offset\":10}],\"version\":1}");
            assertThat(tool(DeleteRecordsCommand.class, bootstrap, "--offset-json-file", deletion.toString()))
                    .isEqualTo("""
                            Executing records delete operation
                            Records delete operation completed:
                            partition: orders-2\tlow_watermark: 10
                            """);
            assertThat(tool(GetOffsetShell.class, bootstrap, "--topic", "orders", "--time", "-2"))
                    .isEqualTo("orders:0:0\norders:1:0\norders:2:10\n");
            assertThat(tool(GetOffsetShell.class, bootstrap, "--topic", "orders", "--time", "-1"))
                    .isEqualTo("orders:0:0\norders:1:0\norders:2:100\n");
            assertThat(tool(GetOffsetShell.class, bootstrap, "--topic-partitions", "orders:0,orders:2", "--time", "0"))
                    .as("the first offset at or after time 0: none in the empty partition").isEqualTo("orders:2:10\n");

            assertThat(tool(ClientMetricsCommand.class, bootstrap, "--list")).isEqualTo("\n");
            assertThat(tool(GroupsCommand.class, bootstrap, "--list")).isEqualTo("""
                    GROUP                TYPE                 PROTOCOL
                    billing              Classic
                    """);
            assertThat(tool(GROUPS, bootstrap, "--delete", "--group", "billing"))
                    .isEqualTo("Deletion of requested consumer groups ('billing') was successful.\n");
            assertThat(tool(GroupsCommand.class, bootstrap, "--list")).isEqualTo("GROUP                TYPE"
                    + "                 PROTOCOL\n");
        }
    }

    /** The tool's standard output, every line without the spaces that pad its last column. */
    private static String tool(Class<?> command, String bootstrap, String... args) throws Exception {
        String[] line = new String[args.length + 2];
        line[0] = "--bootstrap-server";
        line[1] = bootstrap;
        System.arraycopy(args, 0, line, 2, args.length);
        return KafkaTool.run(command, line).lines().map(String::stripTrailing).map(text -> text + "\n")
                .collect(Collectors.joining());
    }
}
