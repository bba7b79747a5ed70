package io.minibroker.broker.quota;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
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

    @TempDir
    Path logDir;

    @Test
    void aProduceOverTheQuotaIsAcknowledgedWithItsThrottleTimeAndTheConnectionMutedForIt() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock)) {
            MeteredTopic.create(broker, "metered-producer", QuotaConfig.PRODUCER_BYTE_RATE, 1000.0);

            byte[] request = MeteredTopic.produceRequest("metered-producer", new byte[15_000]);
            int requestBytes = request.length - 4;
            // A first rate is measured over 10 windows of 1 s (quota.window.num - 1): requestBytes / 10 B/s, so
            // Kafka's throttle, (rate - 1000) / 1000 * 10 000 ms, is requestBytes - 10 000 ms.
            int expectedThrottleMs = requestBytes - 10_000;
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                client.send(request);
                Struct answer = client.receive(ApiKey.PRODUCE, MeteredTopic.PRODUCE_V9).body();
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
                other.send(MeteredTopic.produceRequest("unmetered", new byte[15_000]));
                assertThat(other.receive(ApiKey.PRODUCE, MeteredTopic.PRODUCE_V9).body().getInt32("ThrottleTimeMs"))
                        .as("a client id without a quota").isZero();
            }
        }
    }
}
