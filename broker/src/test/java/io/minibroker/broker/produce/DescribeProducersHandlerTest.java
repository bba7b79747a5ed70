package io.minibroker.broker.produce;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TestLeadership;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** DescribeProducers' answers for partitions it cannot describe, and for one without producers. */
class DescribeProducersHandlerTest {

    private static final RequestContext CONTEXT = new RequestContext("PLAINTEXT", null);

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
    void unknownPartitionsAndPartitionsLedElsewhereAreKafkasErrors() throws Exception {
        PartitionLeadership leadsOnlyLed = new TestLeadership(partition -> partition.topic().equals("led"), 1);
        DescribeProducersHandler handler = new DescribeProducersHandler(topics, new ProducerStates(), leadsOnlyLed);
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
        assertThat(Errors.forCode(response.getStructs("Topics").get(1).getStructs("Partitions").get(0)
                .getInt16("ErrorCode"))).isEqualTo(Errors.NOT_LEADER_OR_FOLLOWER);
        assertThat(Errors.forCode(response.getStructs("Topics").get(2).getStructs("Partitions").get(0)
                .getInt16("ErrorCode"))).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION);
    }
}
