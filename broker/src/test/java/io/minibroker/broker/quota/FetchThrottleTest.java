package io.minibroker.broker.quota;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer's Fetch under {@code consumer_byte_rate}, on the broker's manual clock, as Kafka's KafkaApis serves it:
 * an answer that takes the rate over the quota is sent empty with its throttle time and its bytes taken back, so
 * that once the windows have passed the same fetch is answered; and no answer holds more record bytes than the
 * quota lets through in the windows a rate is measured over (1000 B/s x 10 s).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FetchThrottleTest {

    private static final short FETCH_V12 = 12;

    @TempDir
    Path logDir;

    @Test
    void aFetchIsBoundedByTheQuotaWindowAndAnsweredEmptyWhenThrottled() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock)) {
            MeteredTopic.create(broker, "metered-consumer", QuotaConfig.CONSUMER_BYTE_RATE, 1000.0);
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                produce(client, 2);
                Struct first = fetch(client, 0);
                assertThat(first.getInt32("ThrottleTimeMs")).as("8 KB over the 10 s a first rate is measured over")
                        .isZero();
                assertThat(records(first)).isBetween(8000, 9000);

                produce(client, 1);
                Struct throttled = fetch(client, 2);
                assertThat(throttled.getInt32("ThrottleTimeMs")).as("12 KB: over 1000 B/s").isBetween(2000, 3000);
                assertThat(throttled.getStructs("Responses")).as("answered empty, as Kafka").isEmpty();

                clock.advance(11_000); // past the throttle, and every window of the span
                Struct later = fetch(client, 2);
                assertThat(later.getInt32("ThrottleTimeMs")).as("the empty answer's bytes were taken back").isZero();
                assertThat(records(later)).isBetween(4000, 5000);

                clock.advance(11_000);
                // All three batches (12 KB) are more than a window lets through: the answer is cut at 10 000 record
                // bytes, so its throttle time is its few bytes over (Kafka's formula: size - 10 000 ms here).
                assertThat(fetch(client, 0).getInt32("ThrottleTimeMs")).isBetween(1, 200);
            }
        }
    }

    @Test
    void aThrottledIncrementalFetchKeepsItsSessionAsKafkasThrottledAnswerDoes() throws Exception {
        ManualClock clock = new ManualClock();
        try (Broker broker = TestBrokers.start(logDir, Map.of(), clock)) {
            MeteredTopic.create(broker, "metered-consumer", QuotaConfig.CONSUMER_BYTE_RATE, 1000.0);
            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                produce(client, 2);
                Struct opened = fetch(client, 0, 0, 0); // a full fetch opening a session
                int session = opened.getInt32("SessionId");
                assertThat(session).isNotZero();
                assertThat(opened.getInt32("ThrottleTimeMs")).isZero();

                produce(client, 1);
                Struct throttled = fetch(client, 2, session, 1);
                assertThat(throttled.getInt32("ThrottleTimeMs")).isPositive();
                assertThat(throttled.getStructs("Responses")).isEmpty();
                assertThat(throttled.getInt32("SessionId")).as("the session goes on").isEqualTo(session);
            }
        }
    }

    private static void produce(RawClient client, int batches) throws Exception {
        for (int i = 0; i < batches; i++) {
            client.send(MeteredTopic.produceRequest("writer", new byte[4000]));
            client.receive(ApiKey.PRODUCE, MeteredTopic.PRODUCE_V9);
        }
    }

    private static int records(Struct fetchAnswer) {
        return ((ByteBuf) fetchAnswer.getStructs("Responses").get(0).getStructs("Partitions").get(0).get("Records"))
                .readableBytes();
    }

    /** A fetch of the topic's partition without a session (epoch -1). */
    private static Struct fetch(RawClient client, long offset) throws Exception {
        return fetch(client, offset, 0, -1);
    }

    private static Struct fetch(RawClient client, long offset, int sessionId, int sessionEpoch) throws Exception {
        FetchRequestView body = new FetchRequestView().replicaId(-1).maxWaitMs(0).minBytes(1).maxBytes(1 << 20)
                .sessionId(sessionId).sessionEpoch(sessionEpoch);
        body.addTopic().topic(MeteredTopic.NAME).addPartition().partition(0).fetchOffset(offset)
                .partitionMaxBytes(1 << 20).currentLeaderEpoch(-1).logStartOffset(-1).lastFetchedEpoch(-1);
        client.send(MessageCodec.encodeRequestToArray(
                new RequestHeader(ApiKey.FETCH.id(), FETCH_V12, 7, "metered-consumer"), body.struct()));
        return client.receive(ApiKey.FETCH, FETCH_V12).body();
    }
}
