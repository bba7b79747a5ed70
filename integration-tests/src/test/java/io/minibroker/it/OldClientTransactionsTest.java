package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The transaction version 1 path as an older client line takes it: kafka-clients 3.9 (in a child JVM,
 * {@link OldClientTransactions}) against a broker at its defaults, which finalizes transaction version 2 (KIP-890);
 * 3.9 does not know version 2, so it adds its partitions with AddPartitionsToTxn and produces below v12, as the wire
 * shows. Commit, abort, what read_committed and read_uncommitted consumers see, fencing by a second instance, and
 * consume-transform-produce with sendOffsetsToTransaction.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class OldClientTransactionsTest {

    @Test
    void kafkaClients39TakesTransactionVersion1() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(Map.of());
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     broker.bootstrapServers()))) {
            String bootstrap = broker.bootstrapServers();
            admin.createTopics(List.of(new NewTopic("old", 1, (short) 1), new NewTopic("input", 3, (short) 1),
                    new NewTopic("output", 2, (short) 1))).all().get();
            int inputs = 300;
            try (KafkaProducer<String, String> plain = Clients.producer(bootstrap)) {
                for (int i = 0; i < inputs; i++) {
                    plain.send(new ProducerRecord<>("input", i % 3, "k" + i, "in-" + i));
                }
            }
            broker.controls().requestLog().start();

            Map<String, String> results = KafkaTool.runWithClients("kafka.old.clients.jar",
                    OldClientTransactions.class, bootstrap).lines()
                    .filter(line -> line.startsWith("RESULT "))
                    .map(line -> line.substring("RESULT ".length()).split("=", 2))
                    .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1]));

            assertThat(results.get("clientJar")).as("the client the program ran with").endsWith("kafka-clients-3.9.1.jar");
            // Its send told INVALID_PRODUCER_EPOCH by the leader, as Kafka's, its abort PRODUCER_FENCED.
            assertThat(results.get("fencedBy")).matches("send: .*InvalidProducerEpochException.*; "
                    + "abort: ProducerFencedException.*");
            assertThat(results).containsEntry("readCommitted", "c0,c1,c2,c3,c4,c5");
            assertThat(results.get("readUncommitted").split(","))
                    .containsSubsequence("c0", "c1", "c2", "a0", "a1", "c3", "c4", "fenced0", "c5")
                    .doesNotContain("fenced1");
            assertThat(Integer.parseInt(results.get("transformCommits"))).isPositive();
            TransformLoop.assertOutputOnceAndOffsetsAtEnd(bootstrap, inputs, 3, 2);
            assertThat(TransactionVersionOnTheWire.used(broker.controls().requestLog())).isEqualTo(1);
        }
    }
}
