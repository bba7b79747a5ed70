package io.minibroker.broker.share;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.minibroker.broker.share.ShareWire.acquired;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A ShareFetch is bounded by the broker's {@code fetch.max.bytes} as a Fetch is, whatever its MaxBytes and MinBytes
 * ask, as Kafka 4.3.1's KafkaApis bounds both: MaxBytes to it, MinBytes to that MaxBytes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareFetchMaxBytesTest {

    private static final int FETCH_MAX_BYTES = 1024;
    /** Records of this size, one batch each: a batch is over half of {@link #FETCH_MAX_BYTES}. */
    private static final int VALUE_BYTES = 600;
    private static final int RECORDS = 6;

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest(Map.of("fetch.max.bytes", String.valueOf(FETCH_MAX_BYTES)));

    private static int recordBytes(ShareFetchResponseView response) {
        return response.responses().get(0).partitions().get(0).records().readableBytes();
    }

    @Test
    void aShareFetchAsksForMoreThanFetchMaxBytesAndGetsOneBatch() throws Exception {
        try (ShareWire member = broker.member("g", "member-a")) {
            member.fetch(100); // opens the session at the log end (share.auto.offset.reset=latest)
            broker.produceValuesOf(VALUE_BYTES, RECORDS);
            member.maxBytes = 1 << 20;
            ShareFetchResponseView response = member.fetch(100);
            assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
            // The first batch always goes (a batch larger than the bound is never stuck); the second would pass it.
            assertThat(acquired(response)).containsExactly(List.of(0L, 0L, 1L));
            assertThat(recordBytes(response)).isBetween(VALUE_BYTES, FETCH_MAX_BYTES);
        }
    }

    @Test
    void aMinBytesAboveFetchMaxBytesWaitsOnlyForFetchMaxBytes() throws Exception {
        try (ShareWire member = broker.member("g", "member-a")) {
            member.fetch(100);
            broker.produceValuesOf(VALUE_BYTES, RECORDS); // more than fetch.max.bytes, far less than the MinBytes asked
            member.maxBytes = 1 << 20;
            // MaxWaitMs is never reached on the broker's manual clock: parked, the fetch would not be answered.
            member.sendFetch(60_000, 1 << 20, 100);
            ShareFetchResponseView response = member.receiveFetch();
            assertThat(response.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(acquired(response)).containsExactly(List.of(0L, 0L, 1L));
        }
    }
}
