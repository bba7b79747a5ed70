package io.minibroker.broker.quota;

import io.minibroker.broker.api.HandlerTime;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.time.ManualClock;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.metrics.MetricConfig;
import org.apache.kafka.common.metrics.Metrics;
import org.apache.kafka.common.metrics.Quota;
import org.apache.kafka.common.metrics.QuotaViolationException;
import org.apache.kafka.common.metrics.Sensor;
import org.apache.kafka.common.metrics.stats.Rate;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.quota.QuotaUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code request_percentage} (KIP-124) as Kafka's ClientRequestQuotaManager enforces it: a request's time in its
 * handler, on the broker's manual clock, recorded in percent of a thread's second, gives Kafka's throttle times for
 * a scripted run (against kafka-clients' Rate under a Quota, the quota sensor ClientQuotaManager makes, with the
 * throttle time of server-common's QuotaUtils.boundedThrottleTime bounded to a window, as ClientRequestQuotaManager
 * bounds it); the throttle goes into any response's ThrottleTimeMs, the longer of two quotas' wins, and the requests
 * Kafka exempts are never recorded.
 */
class RequestPercentageQuotaTest {

    private static final short METADATA_V12 = 12;

    @TempDir
    Path dir;

    private final ManualClock manual = new ManualClock(1_000_000);
    private final BrokerClock clock = BrokerClock.manual(manual);

    @Test
    void throttleTimesAreClientRequestQuotaManagersForTheSameHandlerTimesAtTheSameTimes() throws Exception {
        ClientQuotaEnforcement ours = enforcement(QuotaEntity.of("user", "alice"),
                Map.of(QuotaConfig.REQUEST_PERCENTAGE, 5.0));
        AtomicLong kafkaNowMs = new AtomicLong(manual.nowMs());
        KafkaRequestQuota kafka = new KafkaRequestQuota(5.0, kafkaNowMs);
        long[][] script = { // {ms since the last answer, ms in the handler}
            {0, 100}, {10, 200}, {50, 3}, {400, 0}, {2000, 900}, {1, 1}, {999, 50}, {5000, 4000},
            {12_000, 20}, {0, 600}, {700, 10}, {11_000, 1},
        };
        int throttled = 0;
        int bounded = 0;
        for (long[] step : script) {
            manual.advance(step[0]);
            HandlerTime time = handled(ours, step[1]);
            Struct answer = ApiKey.METADATA.response().newMessage();
            int throttleMs = ours.throttle(metadata("app"), "alice", 0, time, answer).throttleMs();

            kafkaNowMs.set(manual.nowMs());
            double percentSeconds = step[1] * 1_000_000L * (100.0 / 1_000_000_000L);
            int kafkaThrottleMs = kafka.record(percentSeconds);
            assertThat(throttleMs).as("at +%d ms, %d ms in the handler", step[0], step[1])
                    .isEqualTo(kafkaThrottleMs);
            assertThat(answer.getInt32("ThrottleTimeMs")).as("the answer carries it").isEqualTo(throttleMs);
            throttled += throttleMs > 0 ? 1 : 0;
            bounded += throttleMs == 1000 ? 1 : 0;
        }
        assertThat(throttled).as("the script throttles some requests and not others").isBetween(3, 9);
        assertThat(bounded).as("some throttles are bounded to quota.window.size.seconds").isPositive();
    }

    @Test
    void theLongerOfTheByteRateAndRequestThrottlesIsAnsweredAndEachRequestOfAClientCounts() throws Exception {
        ClientQuotaEnforcement enforcement = enforcement(QuotaEntity.of("user", null),
                Map.of(QuotaConfig.REQUEST_PERCENTAGE, 5.0, QuotaConfig.PRODUCER_BYTE_RATE, 1000.0));

        // 1000 ms in the handler: 100 percent-seconds over 10 s, 10 % against 5 %: (10 - 5) / 5 x 10 s, bounded to
        // one window (1 s). 15 000 bytes: 1500 B/s against 1000 B/s, (1500 - 1000) / 1000 x 10 s = 5 s.
        Struct bigProduce = ApiKey.PRODUCE.response().newMessage();
        assertThat(enforcement.throttle(produce(), "u1", 15_000, handled(enforcement, 1000), bigProduce)
                .throttleMs()).as("the byte rate's, longer").isEqualTo(5000);
        assertThat(bigProduce.getInt32("ThrottleTimeMs")).isEqualTo(5000);

        Struct smallProduce = ApiKey.PRODUCE.response().newMessage();
        assertThat(enforcement.throttle(produce(), "u2", 100, handled(enforcement, 1000), smallProduce)
                .throttleMs()).as("the request quota's, longer").isEqualTo(1000);
        assertThat(smallProduce.getInt32("ThrottleTimeMs")).isEqualTo(1000);

        assertThat(enforcement.throttle(produce(), "u3", 100, handled(enforcement, 1000), null).throttleMs())
                .as("acks=0: no answer, and exempt from the request quota as Kafka's no-op response").isZero();
        assertThat(enforcement.throttle(metadata("app"), "u3", 0, handled(enforcement, 0),
                ApiKey.METADATA.response().newMessage()).throttleMs()).as("so u3 has recorded nothing").isZero();
    }

    @Test
    void aConsumerFetchOverTheRequestQuotaIsAnsweredEmptyWithItsThrottleTime() throws Exception {
        ClientQuotaEnforcement enforcement = enforcement(QuotaEntity.of("client-id", "app"),
                Map.of(QuotaConfig.REQUEST_PERCENTAGE, 5.0));

        Struct served = ApiKey.FETCH.response().newMessage();
        served.addElement("Responses").set("Topic", "t");
        ClientQuotaEnforcement.Throttle throttle = enforcement.throttle(fetch(-1), "u", 0,
                handled(enforcement, 1000), served);
        assertThat(throttle.throttleMs()).isEqualTo(1000);
        assertThat(throttle.answer()).as("Kafka's throttled fetch response").isNotSameAs(served);
        assertThat(throttle.answer().getInt32("ThrottleTimeMs")).isEqualTo(1000);
        assertThat(throttle.answer().getStructs("Responses")).isEmpty();
    }

    @Test
    void theRequestsKafkaExemptsAreNeitherThrottledNorRecorded() throws Exception {
        ClientQuotaEnforcement enforcement = enforcement(QuotaEntity.of("client-id", "app"),
                Map.of(QuotaConfig.REQUEST_PERCENTAGE, 5.0));

        Struct followerAnswer = ApiKey.FETCH.response().newMessage();
        assertThat(enforcement.throttle(fetch(1), "u", 0, handled(enforcement, 5000), followerAnswer).throttleMs())
                .as("a follower's fetch").isZero();
        assertThat(followerAnswer.getInt32("ThrottleTimeMs")).isZero();
        Request markers = new Request(new RequestHeader(ApiKey.WRITE_TXN_MARKERS.id(), (short) 1, 1, "app"),
                ApiKey.WRITE_TXN_MARKERS, ApiKey.WRITE_TXN_MARKERS.request().newMessage());
        assertThat(enforcement.throttle(markers, "u", 0, handled(enforcement, 5000),
                ApiKey.WRITE_TXN_MARKERS.response().newMessage()).throttleMs()).as("WriteTxnMarkers").isZero();
        Struct duringSasl = ApiKey.METADATA.response().newMessage();
        HandlerTime notCounted = HandlerTime.NOT_COUNTED;
        notCounted.measure(() -> {
            manual.advance(5000);
            return null;
        });
        assertThat(enforcement.throttle(metadata("app"), "u", 0, notCounted, duringSasl).throttleMs())
                .as("a request whose time is not counted").isZero();

        assertThat(enforcement.throttle(metadata("app"), "u", 0, handled(enforcement, 0),
                ApiKey.METADATA.response().newMessage()).throttleMs())
                .as("none of their 15 s was recorded against the client").isZero();
    }

    @Test
    void exemptRequestTimeIsKafkasRateOfTheExemptRequestsTimeOnceARequestQuotaIsSet() throws Exception {
        ClientQuotaEnforcement enforcement = enforcement(QuotaEntity.of("client-id", "app"),
                Map.of(QuotaConfig.REQUEST_PERCENTAGE, 5.0));
        // Kafka's exempt sensor: a Rate with no config of its own, so over the metrics' default 2 windows of 30 s.
        MetricConfig config = new MetricConfig().samples(2).timeWindow(30, TimeUnit.SECONDS);
        Rate kafka = new Rate();
        long[][] script = {{0, 500}, {100, 2000}, {29_000, 40}, {5_000, 3000}, {70_000, 10}, {1, 1}};
        for (long[] step : script) {
            manual.advance(step[0]);
            enforcement.throttle(fetch(1), "u", 0, handled(enforcement, step[1]),
                    ApiKey.FETCH.response().newMessage());
            kafka.record(config, step[1] * 1_000_000L * (100.0 / 1_000_000_000L), manual.nowMs());
            assertThat(enforcement.exemptRequestTime()).as("after +%d ms", step[0])
                    .isEqualTo(kafka.measure(config, manual.nowMs()));
        }
        enforcement.throttle(metadata("app"), "u", 0, handled(enforcement, 5000),
                ApiKey.METADATA.response().newMessage());
        assertThat(enforcement.exemptRequestTime()).as("a request under the quota is not exempt")
                .isEqualTo(kafka.measure(config, manual.nowMs()));
    }

    @Test
    void noExemptRequestTimeIsRecordedWhileNoRequestQuotaIsSet() throws Exception {
        ClientQuotaEnforcement enforcement = enforcement(QuotaEntity.of("client-id", "app"),
                Map.of(QuotaConfig.PRODUCER_BYTE_RATE, 5.0));
        enforcement.throttle(fetch(1), "u", 0, handled(enforcement, 5000), ApiKey.FETCH.response().newMessage());
        assertThat(enforcement.exemptRequestTime()).isZero();
    }

    /** The quotas' enforcement on the manual clock, 11 windows of 1 s, with {@code values} set for {@code entity}. */
    private ClientQuotaEnforcement enforcement(QuotaEntity entity, Map<String, Double> values) throws IOException {
        ClientQuotas quotas = ClientQuotas.open(dir);
        quotas.alter(Map.of(entity, values));
        return new ClientQuotaEnforcement(quotas, clock, 11, 1);
    }

    /** A request's time, as the request handler measures it: its handler takes {@code ms} of the broker's clock. */
    private HandlerTime handled(ClientQuotaEnforcement enforcement, long ms) {
        HandlerTime time = enforcement.handlerTime();
        time.measure(() -> {
            manual.advance(ms);
            return null;
        });
        return time;
    }

    private static Request metadata(String clientId) {
        return new Request(new RequestHeader(ApiKey.METADATA.id(), METADATA_V12, 1, clientId), ApiKey.METADATA,
                ApiKey.METADATA.request().newMessage());
    }

    private static Request produce() {
        return new Request(new RequestHeader(ApiKey.PRODUCE.id(), MeteredTopic.PRODUCE_V9, 1, "app"),
                ApiKey.PRODUCE, ApiKey.PRODUCE.request().newMessage());
    }

    /** A Fetch v12 from a consumer (replica id -1) or a follower. */
    private static Request fetch(int replicaId) {
        return new Request(new RequestHeader(ApiKey.FETCH.id(), (short) 12, 1, "app"), ApiKey.FETCH,
                ApiKey.FETCH.request().newMessage().set("ReplicaId", replicaId));
    }

    /**
     * Kafka's ClientRequestQuotaManager's arithmetic: the quota sensor's Rate (11 windows of 1 s, an upper bound), and
     * on a violation QuotaUtils.boundedThrottleTime with one window (1 s) as the bound.
     */
    private static final class KafkaRequestQuota {
        final Time time;
        final Sensor sensor;

        KafkaRequestQuota(double percentage, AtomicLong nowMs) {
            time = new ScriptedTime(nowMs);
            MetricConfig config = new MetricConfig().timeWindow(1, TimeUnit.SECONDS).samples(11)
                    .quota(Quota.upperBound(percentage));
            sensor = new Metrics(new MetricConfig(), time).sensor("Request-alice");
            sensor.add(new MetricName("request-time", "Request", "", Map.of()), new Rate(), config);
        }

        int record(double percentSeconds) {
            try {
                sensor.record(percentSeconds, time.milliseconds(), true);
                return 0;
            } catch (QuotaViolationException e) {
                return (int) QuotaUtils.boundedThrottleTime(e, 1000, time.milliseconds());
            }
        }
    }
}
