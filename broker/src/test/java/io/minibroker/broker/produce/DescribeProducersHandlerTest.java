package io.minibroker.broker.produce;

import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestContexts;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.schema.Struct;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * DescribeProducers' answers for partitions it cannot describe, for one without producers, and for one this node
 * follows, which it answers from its log as Kafka's followers do.
 */
class DescribeProducersHandlerTest {

    private static final RequestContext CONTEXT = TestContexts.on("PLAINTEXT");

    @TempDir
    Path logDir;
    private TopicRegistry topics;

    @BeforeEach
    void open() throws Exception {
        topics = TopicRegistry.open(BrokerConfig.of(Map.of("log.dir", logDir.toString())), Clock.systemUTC());
        topics.create("led", 1, 1, Map.of(), false);
        topics.create("followed", 1, 1, Map.of(), false);
    }

    @AfterEach
    void close() throws Exception {
        topics.close();
    }

    @Test
    void unknownPartitionsAreKafkasErrorsAndAFollowerAnswersFromItsLog() throws Exception {
        PartitionLog followed = topics.partitionLog(topics.get("followed").orElseThrow(), 0).orElseThrow();
        append(followed, 7L, (short) 2, 0, 3, 1_000L);
        append(followed, 7L, (short) 2, 3, 2, 2_000L); // sequences 3 and 4
        append(followed, 9L, (short) 0, 0, 1, 1_500L);
        DescribeProducersHandler handler = new DescribeProducersHandler(topics);
        Struct body = ApiKey.DESCRIBE_PRODUCERS.request().newMessage();
        body.addElement("Topics").set("Name", "led").set("PartitionIndexes", List.of(0, 7, -1));
        body.addElement("Topics").set("Name", "followed").set("PartitionIndexes", List.of(0));
        body.addElement("Topics").set("Name", "absent").set("PartitionIndexes", List.of(0));

        Struct response = handler.handle(CONTEXT, new Request(new RequestHeader(ApiKey.DESCRIBE_PRODUCERS.id(),
                (short) 0, 1, "test"), ApiKey.DESCRIBE_PRODUCERS, body)).toCompletableFuture().get();

        List<Struct> led = response.getStructs("Topics").get(0).getStructs("Partitions");
        assertThat(led).extracting(p -> Errors.forCode(p.getInt16("ErrorCode")))
                .containsExactly(Errors.NONE, Errors.UNKNOWN_TOPIC_OR_PARTITION, Errors.UNKNOWN_TOPIC_OR_PARTITION);
        assertThat(led.get(0).getStructs("ActiveProducers")).as("no producer has written").isEmpty();
        Struct follower = response.getStructs("Topics").get(1).getStructs("Partitions").get(0);
        assertThat(Errors.forCode(follower.getInt16("ErrorCode"))).isEqualTo(Errors.NONE);
        assertThat(follower.getStructs("ActiveProducers"))
                .extracting(p -> p.getInt64("ProducerId"), p -> p.getInt32("ProducerEpoch"),
                        p -> p.getInt32("LastSequence"), p -> p.getInt64("LastTimestamp"))
                .containsExactly(tuple(7L, 2, 4, 2_000L), tuple(9L, 0, 0, 1_500L));
        assertThat(Errors.forCode(response.getStructs("Topics").get(2).getStructs("Partitions").get(0)
                .getInt16("ErrorCode"))).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
    }

    /** A batch of {@code count} records of an idempotent producer, all stamped {@code timestamp}. */
    private static void append(PartitionLog log, long producerId, short epoch, int baseSequence, int count,
                               long timestamp) {
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0,
                timestamp).producer(producerId, epoch, baseSequence);
        for (int i = 0; i < count; i++) {
            builder.append(timestamp, null, new byte[]{(byte) i}, List.of());
        }
        ByteBuf batch = builder.build();
        try {
            log.append(batch, 0);
        } finally {
            batch.release();
        }
    }
}
