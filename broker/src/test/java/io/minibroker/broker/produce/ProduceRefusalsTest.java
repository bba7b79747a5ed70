package io.minibroker.broker.produce;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Produce refusals Kafka makes before a partition's append: records ProduceRequest.validateRecords refuses, before
 * anything else; internal topics, and acks it does not know; and, at the append, a base offset before the size.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProduceRefusalsTest {

    private static final short PRODUCE_V9 = 9;
    private static final String TOPIC = "plain";
    private static final String OTHER = "other";
    private static final String OFFSETS = "__consumer_offsets";
    /** max.message.bytes 100. */
    private static final String SMALL = "small";

    private Broker broker;

    @TempDir
    Path logDir;

    @BeforeEach
    void start() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1), new NewTopic(OTHER, 1, (short) 1),
                    new NewTopic(SMALL, 1, (short) 1).configs(Map.of("max.message.bytes", "100")))).all().get();
            admin.listConsumerGroupOffsets("any").partitionsToOffsetAndMetadata().get(); // makes the offsets topic
        }
    }

    @AfterEach
    void stop() {
        broker.close();
    }

    /** One keyless record in a batch at base offset 0, {@code batches} times over. */
    private static ByteBuf records(int batches) {
        return records(batches, 0, "v");
    }

    /** One keyless record valued {@code value} in a batch at {@code baseOffset}, {@code batches} times over. */
    private static ByteBuf records(int batches, long baseOffset, String value) {
        ByteBuf all = Unpooled.buffer();
        for (int i = 0; i < batches; i++) {
            ByteBuf built = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, baseOffset, 1L)
                    .append(1L, null, value.getBytes(StandardCharsets.UTF_8), List.of()).build();
            all.writeBytes(ByteBufUtil.getBytes(built));
            built.release();
        }
        return all;
    }

    /** The partition answers of a produce of partition 0 of each topic, {@code batches[i]} batches to the i-th. */
    private List<Struct> produce(String clientId, short acks, List<String> topics, int... batches) throws Exception {
        ByteBuf[] records = new ByteBuf[topics.size()];
        for (int i = 0; i < topics.size(); i++) {
            records[i] = records(batches[i]);
        }
        return produce(clientId, acks, topics, records);
    }

    /** The partition answers of a produce of partition 0 of each topic, {@code records[i]} to the i-th. */
    private List<Struct> produce(String clientId, short acks, List<String> topics, ByteBuf... records)
            throws Exception {
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", acks).set("TimeoutMs", 5000);
        for (int i = 0; i < topics.size(); i++) {
            body.addElement("TopicData").set("Name", topics.get(i)).addElement("PartitionData").set("Index", 0)
                    .set("Records", records[i]);
        }
        try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
            client.send(MessageCodec.encodeRequestToArray(
                    new RequestHeader(ApiKey.PRODUCE.id(), PRODUCE_V9, 1, clientId), body));
            return client.receive(ApiKey.PRODUCE, PRODUCE_V9).body().getStructs("Responses").stream()
                    .map(topic -> topic.getStructs("PartitionResponses").get(0)).toList();
        }
    }

    /**
     * Kafka's appendToLocalLog: INVALID_TOPIC_EXCEPTION, with no message or log start offset, unless the client id
     * is {@code __admin_client}, whose records go on to the log's checks (a keyless record in the compacted offsets
     * topic: INVALID_RECORD).
     */
    @Test
    void internalTopicsTakeProducesFromTheAdminClientIdOnly() throws Exception {
        Struct refused = produce("a-client", (short) 1, List.of(OFFSETS), 1).get(0);
        assertThat(refused.getInt16("ErrorCode")).isEqualTo(Errors.INVALID_TOPIC_EXCEPTION.code());
        assertThat(refused.getString("ErrorMessage")).isNull();
        assertThat(refused.getInt64("LogStartOffset")).isEqualTo(-1);

        assertThat(produce("__admin_client", (short) 1, List.of(OFFSETS), 1).get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.INVALID_RECORD.code());
    }

    /**
     * KafkaApis answers unknown topics and records ProduceRequest.validateRecords refuses (two batches at v9) with
     * their own errors; ReplicaManager answers the rest INVALID_REQUIRED_ACKS.
     */
    @Test
    void invalidAcksLeaveUnknownTopicsAndInvalidRecordsTheirOwnErrors() throws Exception {
        List<Struct> answers = produce("a-client", (short) 2, List.of("no-such-topic", TOPIC, OTHER), 1, 1, 2);

        assertThat(answers).extracting(answer -> Errors.forCode(answer.getInt16("ErrorCode"))).containsExactly(
                Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.INVALID_REQUIRED_ACKS, Errors.INVALID_RECORD);
    }

    /**
     * KafkaApis runs ProduceRequest.validateRecords before ReplicaManager's checks: two batches at v9 to an internal
     * topic are INVALID_RECORD, not INVALID_TOPIC_EXCEPTION.
     */
    @Test
    void recordsValidateRecordsRefusesAreRefusedSoBeforeTheInternalTopicCheck() throws Exception {
        assertThat(produce("a-client", (short) 1, List.of(OFFSETS), 2).get(0).getInt16("ErrorCode"))
                .isEqualTo(Errors.INVALID_RECORD.code());
    }

    /** Kafka's analyzeAndValidateRecords checks a client's base offset before max.message.bytes. */
    @Test
    void aBatchTooLargeAtABaseOffsetOtherThanZeroIsRefusedForItsBaseOffset() throws Exception {
        Struct answer = produce("a-client", (short) 1, List.of(SMALL), records(1, 5, "v".repeat(200))).get(0);

        assertThat(Errors.forCode(answer.getInt16("ErrorCode"))).isEqualTo(Errors.INVALID_RECORD);
    }
}
