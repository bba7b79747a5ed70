package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionMarker;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.TxnOffsetCommitRequestView;
import io.minibroker.protocol.message.view.TxnOffsetCommitResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * KIP-447 seen by kafka-clients 4.4.0: a consumer's {@code committed()} always sets requireStable (whatever its
 * isolation level) and keeps retrying UNSTABLE_OFFSET_COMMIT while an offset is pending in an open transaction,
 * across restarts, until the producer's COMMIT marker is in {@code __consumer_offsets}; the Admin's
 * listConsumerGroupOffsets, which does not require stable offsets by default, sees the committed offset at once.
 * The marker is written into the stopped broker's log as the log side's appender would write it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadCommittedOffsetsClientTest {

    private static final Map<String, String> ONE_OFFSETS_PARTITION = Map.of("offsets.topic.num.partitions", "1");
    private static final org.apache.kafka.common.TopicPartition ORDERS_0 =
            new org.apache.kafka.common.TopicPartition("orders", 0);
    /** Its transaction has the group's offsets partition; the test writes its commit marker. */
    private TransactionalProducer producer;

    @TempDir
    Path logDir;
    private EmbeddedBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private KafkaConsumer<byte[], byte[]> consumer(String isolation) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "g", ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private Long committed(String isolation, Duration timeout) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(isolation)) {
            OffsetAndMetadata offset = consumer.committed(Set.of(ORDERS_0), timeout).get(ORDERS_0);
            return offset == null ? null : offset.offset();
        }
    }

    /** The group's offset as the Admin lists it, without requireStable. */
    private Long listed() throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()))) {
            OffsetAndMetadata offset = admin.listConsumerGroupOffsets("g").partitionsToOffsetAndMetadata().get()
                    .get(ORDERS_0);
            return offset == null ? null : offset.offset();
        }
    }

    private void txnCommit(long offset) throws Exception {
        TxnOffsetCommitRequestView request = new TxnOffsetCommitRequestView().transactionalId("tx").groupId("g")
                .generationIdOrMemberEpoch(-1).memberId("");
        request.addTopic().name("orders").addPartition().partitionIndex(0).committedOffset(offset)
                .committedLeaderEpoch(-1).committedMetadata("");
        try (GroupWireClient client = new GroupWireClient(broker.broker().boundPort("PLAINTEXT"))) {
            producer = TransactionalProducer.begin(client, "tx", "g");
            request.producerId(producer.id()).producerEpoch(producer.epoch());
            TxnOffsetCommitResponseView response = new TxnOffsetCommitResponseView(
                    client.call(ApiKey.TXN_OFFSET_COMMIT, 4, request.struct()));
            assertThat(response.topics().get(0).partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        }
    }

    private void restart() throws Exception {
        broker.close();
        broker = EmbeddedBroker.start(logDir, ONE_OFFSETS_PARTITION);
    }

    @Test
    void readCommittedWaitsForThePendingOffsetAcrossRestartsUntilItsCommitMarker() throws Exception {
        broker = EmbeddedBroker.start(logDir, ONE_OFFSETS_PARTITION);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers()))) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
        }
        try (KafkaConsumer<byte[], byte[]> committer = consumer("read_uncommitted")) {
            committer.commitSync(Map.of(ORDERS_0, new OffsetAndMetadata(5)));
        }
        txnCommit(10);

        assertThat(listed()).isEqualTo(5L);
        assertThatThrownBy(() -> committed("read_committed", Duration.ofSeconds(2)))
                .as("UNSTABLE_OFFSET_COMMIT retried until the timeout").isInstanceOf(TimeoutException.class);
        assertThatThrownBy(() -> committed("read_uncommitted", Duration.ofSeconds(2)))
                .as("the consumer requires stable offsets whatever its isolation").isInstanceOf(TimeoutException.class);

        restart();
        assertThat(listed()).isEqualTo(5L);
        assertThatThrownBy(() -> committed("read_committed", Duration.ofSeconds(2)))
                .as("still pending after a restart").isInstanceOf(TimeoutException.class);

        broker.close();
        writeCommitMarker();
        broker = EmbeddedBroker.start(logDir, ONE_OFFSETS_PARTITION);

        assertThat(committed("read_committed", Duration.ofSeconds(30))).isEqualTo(10L);
        assertThat(listed()).isEqualTo(10L);
    }

    /** Appends the producer's COMMIT marker to {@code __consumer_offsets-0} of the stopped broker's log. */
    private void writeCommitMarker() throws Exception {
        TopicRegistry topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())),
                Clock.systemUTC());
        try {
            new FakeMarkerAppender(topics, List.of()).append(
                    new TransactionMarker(producer.id(), producer.epoch(), 0, TransactionResult.COMMIT, (short) 0),
                    List.of(new TopicPartition(OffsetsTopic.NAME, 0))).toCompletableFuture().get();
        } finally {
            topics.close();
        }
    }
}
