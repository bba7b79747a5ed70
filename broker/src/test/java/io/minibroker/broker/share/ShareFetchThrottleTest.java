package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.ack;
import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ShareFetch under {@code consumer_byte_rate}, as Kafka 4.3.1's KafkaApis.processShareFetchResponse serves it: its
 * answer's size is recorded against the client's fetch quota, and an answer that takes the rate over the quota is
 * sent empty with its throttle time (ShareFetchContext.throttleResponse) and its bytes taken back. The records that
 * fetch acquired are not sent; they stay acquired until their locks expire and are then delivered again.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareFetchThrottleTest {

    private static final int VALUE_BYTES = 600;
    /** The default client id's quota: one 600-byte record (which always goes whole) is over it in any window. */
    private static final double CONSUMER_BYTE_RATE = 10.0;
    private static final long LOCK_DURATION_MS = 30_000;

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    @Test
    void anAnswerOverTheQuotaIsSentEmptyWithItsThrottleTimeAndItsRecordsComeBackAfterTheirLocks() throws Exception {
        try (ShareWire member = broker.member("g", "member-a"); ShareWire other = broker.member("g", "member-b")) {
            member.fetch(100); // opens the session at the log end (share.auto.offset.reset=latest)
            broker.produceValuesOf(VALUE_BYTES, 3);
            setDefaultClientQuota(CONSUMER_BYTE_RATE);

            ShareFetchResponseView throttled = member.fetch(100);
            assertThat(throttled.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(throttled.throttleTimeMs()).as("about 700 bytes over 10 s: over 10 B/s").isPositive();
            assertThat(throttled.responses()).as("answered empty, as Kafka").isEmpty();

            // The throttled fetch acquired the first batch only (the quota window's 100 bytes bound it, and a
            // first batch goes whole): another member gets the rest, and that batch once its lock expired.
            setDefaultClientQuota(null);
            assertThat(acquired(other.fetch(100))).as("offset 0 held by the throttled fetch")
                    .containsExactly(List.of(1L, 2L, 1L));
            assertThat(other.acknowledge(ack(1, 2, AcknowledgeType.ACCEPT)).errorCode()).isEqualTo(Errors.NONE.code());
            broker.clock.advance(LOCK_DURATION_MS + 1);
            ShareFetchResponseView later = other.fetch(100);
            assertThat(later.throttleTimeMs()).isZero();
            assertThat(acquired(later)).as("delivered a second time once its lock expired")
                    .containsExactly(List.of(0L, 0L, 2L));
        }
    }

    /** Sets (or with null removes) {@code consumer_byte_rate} for the default client id, every client's. */
    private void setDefaultClientQuota(Double bytesPerSecond) throws Exception {
        try (Admin admin = broker.admin()) {
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Collections.singletonMap(ClientQuotaEntity.CLIENT_ID, null)),
                    List.of(new ClientQuotaAlteration.Op("consumer_byte_rate", bytesPerSecond))))).all().get();
        }
    }
}
