package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.ProduceRequestView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.tools.TransactionsCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * kafka-transactions.sh (kafka-tools 4.3.1's TransactionsCommand, in a child JVM as the script runs it) against one
 * broker: list and describe a coordinator's open transaction, describe-producers, and a hanging transaction: a
 * transactional batch whose producer id the coordinator never issued (as Kafka's own hanging-transaction tests make
 * one), an hour old, which find-hanging lists and abort ends with WriteTxnMarkers from the admin client. The batch
 * names a transactional id the coordinator does not know, appended because the broker runs with
 * {@code transaction.partition.verification.enable=false} (Kafka's way to such a transaction: with verification on,
 * the leader asks the coordinator first, and a batch with no transactional id is refused).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class TransactionsCommandTest {

    private static final long HANGING_PRODUCER_ID = 987_654L;

    @Test
    void listDescribeFindHangingAndAbort() throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start(
                Map.of("transaction.partition.verification.enable", "false"));
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                     broker.bootstrapServers()))) {
            String bootstrap = broker.bootstrapServers();
            admin.createTopics(List.of(new NewTopic("payments", 1, (short) 1), new NewTopic("stuck", 1, (short) 1)))
                    .all().get();
            try (KafkaProducer<String, String> producer = TxClients.transactionalProducer(bootstrap, "payer",
                    Map.of())) {
                producer.initTransactions();
                producer.beginTransaction();
                producer.send(new ProducerRecord<>("payments", 0, "k", "v")).get();

                List<List<String>> listed = table(tool(bootstrap, "list"));
                assertThat(listed.get(0)).containsExactly("TransactionalId", "Coordinator", "ProducerId",
                        "TransactionState");
                assertThat(listed).hasSize(2);
                assertThat(listed.get(1)).containsExactly("payer", "1", listed.get(1).get(2), "Ongoing");

                List<List<String>> described = table(tool(bootstrap, "describe", "--transactional-id", "payer"));
                assertThat(described.get(0)).containsExactly("CoordinatorId", "TransactionalId", "ProducerId",
                        "ProducerEpoch", "TransactionState", "TransactionTimeoutMs", "CurrentTransactionStartTimeMs",
                        "TransactionDurationMs", "TopicPartitions");
                assertThat(described.get(1)).startsWith("1", "payer", listed.get(1).get(2));
                assertThat(described.get(1).get(4)).isEqualTo("Ongoing");
                assertThat(described.get(1).get(5)).isEqualTo("60000");
                assertThat(described.get(1).get(8)).isEqualTo("payments-0");

                List<List<String>> producers = table(tool(bootstrap, "describe-producers", "--topic", "payments",
                        "--partition", "0"));
                assertThat(producers.get(0)).containsExactly("ProducerId", "ProducerEpoch", "LatestCoordinatorEpoch",
                        "LastSequence", "LastTimestamp", "CurrentTransactionStartOffset");
                assertThat(producers.get(1).get(0)).isEqualTo(listed.get(1).get(2));
                assertThat(producers.get(1).get(5)).isEqualTo("0");
                producer.abortTransaction();
            }

            long anHourAgo = System.currentTimeMillis() - TimeUnit.HOURS.toMillis(1);
            produceHanging(broker.broker().boundPort("PLAINTEXT"), "stuck", anHourAgo);
            TopicPartition stuck = new TopicPartition("stuck", 0);
            assertThat(lastStableOffset(bootstrap, stuck)).isZero();

            List<List<String>> hanging = table(tool(bootstrap, "find-hanging", "--broker-id", "1"));
            assertThat(hanging.get(0)).containsExactly("Topic", "Partition", "ProducerId", "ProducerEpoch",
                    "CoordinatorEpoch", "StartOffset", "LastTimestamp", "Duration(min)");
            assertThat(hanging).hasSize(2);
            assertThat(hanging.get(1).subList(0, 7)).containsExactly("stuck", "0", String.valueOf(HANGING_PRODUCER_ID),
                    "0", "-1", "0", String.valueOf(anHourAgo));

            tool(bootstrap, "abort", "--topic", "stuck", "--partition", "0", "--start-offset", "0");
            assertThat(table(tool(bootstrap, "find-hanging", "--broker-id", "1"))).hasSize(1); // the header only
            assertThat(lastStableOffset(bootstrap, stuck)).as("past the batch and its ABORT marker").isEqualTo(2);
            assertThat(TxClients.readToEnd(bootstrap, "read_committed", List.of(stuck))).isEmpty();
        }
    }

    private static long lastStableOffset(String bootstrap, TopicPartition tp) {
        try (var consumer = TxClients.consumer(bootstrap, "read_committed", Map.of())) {
            return consumer.endOffsets(List.of(tp)).get(tp);
        }
    }

    /** Runs kafka-transactions.sh with these arguments in a child JVM; its standard output. */
    private static String tool(String bootstrap, String... args) throws Exception {
        List<String> line = new ArrayList<>(List.of("--bootstrap-server", bootstrap));
        line.addAll(Arrays.asList(args));
        return KafkaTool.run(TransactionsCommand.class, line.toArray(String[]::new));
    }

    /** The tool's table: a row per line (its rows are tab-separated), its cells split on white space. */
    private static List<List<String>> table(String output) {
        return output.lines().filter(line -> line.contains("\t"))
                .map(line -> Arrays.asList(line.trim().split("\\s+"))).toList();
    }

    /**
     * One transactional batch at {@code timestamp} from a producer id the coordinator never issued, produced raw
     * (Produce v9, below transaction version 2's implicit add, with no AddPartitionsToTxn before it).
     */
    private static void produceHanging(int port, String topic, long timestamp) throws IOException {
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, timestamp)
                .producer(HANGING_PRODUCER_ID, (short) 0, 0).transactional(true)
                .append(timestamp, null, "hanging".getBytes(StandardCharsets.UTF_8), List.of())
                .build();
        ProduceRequestView produce = new ProduceRequestView().transactionalId("hanging").acks((short) -1)
                .timeoutMs(10_000);
        produce.addTopicData().name(topic).addPartitionData().index(0).records(batch);
        ByteBuf request = MessageCodec.encodeRequest(ByteBufAllocator.DEFAULT,
                new RequestHeader(ApiKey.PRODUCE.id(), (short) 9, 1, "hanging"), produce.struct());
        batch.release();
        byte[] bytes = new byte[request.readableBytes()];
        request.readBytes(bytes);
        request.release();
        try (Socket socket = new Socket("localhost", port)) {
            socket.getOutputStream().write(bytes);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            ProduceResponseView response = new ProduceResponseView(MessageCodec.decodeResponse(
                    Unpooled.wrappedBuffer(frame), ApiKey.PRODUCE, (short) 9).body());
            assertThat(response.responses().get(0).partitionResponses().get(0).errorCode()).isZero();
        }
    }
}
