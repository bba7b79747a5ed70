package io.minibroker.broker.quota;

import io.minibroker.broker.network.RawClient;
import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.MessageCodec;
import io.minibroker.protocol.schema.Struct;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code request_percentage} on a running broker (the system clock): a client whose quota is a millionth of a percent
 * of a thread is over it after any request, so kafka-clients' producer sees throttle times (its
 * produce-throttle-time-avg, from ThrottleTimeMs), each at most a quota window (1 s, Kafka's bound), and its records
 * are still acknowledged; a follower's Fetch, which Kafka exempts, is answered unthrottled under the same quota,
 * while the same client's Metadata is throttled.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RequestPercentageClientsTest {

    private static final double TINY_PERCENTAGE = 0.000001;
    private static final short FOLLOWER_FETCH_VERSION = 12;

    @TempDir
    Path logDir;

    @Test
    void aProducerOverItsRequestQuotaSeesThrottleTimesAndAFollowersFetchIsExempt() throws Exception {
        try (Broker broker = TestBrokers.start(logDir, Map.of());
             Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1))).all().get();
            admin.alterClientQuotas(List.of(quota("busy-producer"), quota("replica-like"))).all().get();

            try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:" + broker.boundPort("PLAINTEXT"),
                    ProducerConfig.CLIENT_ID_CONFIG, "busy-producer"), new ByteArraySerializer(),
                    new ByteArraySerializer())) {
                for (int i = 0; i < 3; i++) {
                    producer.send(new ProducerRecord<>("metered", new byte[100])).get();
                }
                assertThat(metric(producer, "produce-throttle-time-avg")).isPositive();
                assertThat(metric(producer, "produce-throttle-time-max")).as("bounded to one window")
                        .isLessThanOrEqualTo(1000);
            }

            try (RawClient client = new RawClient(broker.boundPort("PLAINTEXT"))) {
                for (int correlationId = 1; correlationId <= 3; correlationId++) {
                    client.send(followerFetch(correlationId));
                    Struct answer = client.receive(ApiKey.FETCH, FOLLOWER_FETCH_VERSION).body();
                    assertThat(answer.getInt32("ThrottleTimeMs")).as("a follower's fetch, exempt").isZero();
                }
                client.send(MessageCodec.encodeRequestToArray(
                        new RequestHeader(ApiKey.METADATA.id(), (short) 12, 4, "replica-like"),
                        ApiKey.METADATA.request().newMessage()));
                assertThat(client.receive(ApiKey.METADATA, (short) 12).body().getInt32("ThrottleTimeMs"))
                        .as("the same client's Metadata").isPositive();
            }
        }
    }

    /** A Fetch v12 from replica 1 of nothing: Kafka answers a follower's Fetch exempt from request quotas. */
    private static byte[] followerFetch(int correlationId) {
        Struct body = ApiKey.FETCH.request().newMessage().set("ReplicaId", 1).set("MaxWaitMs", 0)
                .set("MinBytes", 0);
        return MessageCodec.encodeRequestToArray(
                new RequestHeader(ApiKey.FETCH.id(), FOLLOWER_FETCH_VERSION, correlationId, "replica-like"), body);
    }

    private static ClientQuotaAlteration quota(String clientId) {
        return new ClientQuotaAlteration(new ClientQuotaEntity(Map.of("client-id", clientId)),
                List.of(new ClientQuotaAlteration.Op(QuotaConfig.REQUEST_PERCENTAGE, TINY_PERCENTAGE)));
    }

    private static double metric(KafkaProducer<?, ?> producer, String name) {
        Map<MetricName, ? extends Metric> metrics = producer.metrics();
        return metrics.entrySet().stream().filter(entry -> entry.getKey().name().equals(name)).findFirst()
                .map(entry -> ((Number) entry.getValue().metricValue()).doubleValue()).orElseThrow();
    }
}
