package io.minibroker.broker.quota;

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
import io.minibroker.purgatory.time.ManualClock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Produce over its client's {@code producer_byte_rate}, on the broker's manual clock: acknowledged at once with
 * Kafka's throttle time in ThrottleTimeMs, and the connection then muted for that long (KIP-219): a request sent
 * meanwhile is answered only once the clock has moved past the throttle.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProduceThrottleTest {

    private static final short PRODUCE_V9 = 9;

    @TempDir
    Path logDir;

    @Test
    void aProduceOverTheQuotaIsAcknowledgedWithItsThrottleTimeAndTheConnectionMutedForIt() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock);
             Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1))).all().get();
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Map.of("client-id", "metered-producer")),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1000.0))))).all().get();

            byte[] request = produceRequest("metered-producer", new byte[15_000]);
            int requestBytes = request.length - 4;
            // A first rate is measured over 10 windows of 1 s (quota.window.num - 1): requestBytes / 10 B/s, so
            // Kafka's throttle, (rate - 1000) / 1000 * 10 000 ms, is requestBytes - 10 000 ms.
            int expectedThrottleMs = requestBytes - 10_000;
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                client.send(request);
                Struct answer = client.receive(ApiKey.PRODUCE, PRODUCE_V9).body();
                assertThat(answer.getInt32("ThrottleTimeMs")).isEqualTo(expectedThrottleMs);
                assertThat(answer.getStructs("Responses").get(0).getStructs("PartitionResponses").get(0)
                        .getInt16("ErrorCode")).as("acknowledged all the same").isEqualTo(Errors.NONE.code());

                client.send(RawClient.apiVersions((short) 3, 2));
                clock.advance(expectedThrottleMs - 1);
                assertThat(client.answersWithin(500)).as("muted until the throttle ends").isFalse();
                clock.advance(1);
                assertThat(client.receive(ApiKey.API_VERSIONS, (short) 3).correlationId()).isEqualTo(2);
            }
            try (RawClient other = new RawClient(broker.boundPort("PLAINTEXT"))) {
                other.send(produceRequest("unmetered", new byte[15_000]));
                assertThat(other.receive(ApiKey.PRODUCE, PRODUCE_V9).body().getInt32("ThrottleTimeMs"))
                        .as("a client id without a quota").isZero();
            }
        }
    }

    private static byte[] produceRequest(String clientId, byte[] value) {
        ByteBuf records = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, 0)
                .append(0, null, value, List.of()).build();
        Struct body = ApiKey.PRODUCE.request().newMessage().set("Acks", (short) 1).set("TimeoutMs", 5000);
        body.addElement("TopicData").set("Name", "metered").addElement("PartitionData").set("Index", 0)
                .set("Records", records);
        try {
            return MessageCodec.encodeRequestToArray(new RequestHeader(ApiKey.PRODUCE.id(), PRODUCE_V9, 1, clientId),
                    body);
        } finally {
            records.release();
        }
    }
}
