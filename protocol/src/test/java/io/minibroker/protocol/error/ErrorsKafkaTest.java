package io.minibroker.protocol.error;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorsKafkaTest {
    @Test
    void everyCodeAndNameMatchesKafka() {
        for (Errors ours : Errors.values()) {
            org.apache.kafka.common.protocol.Errors kafka = org.apache.kafka.common.protocol.Errors.forCode(ours.code());
            assertThat(kafka.name()).as("code " + ours.code()).isEqualTo(ours.name());
            assertThat(Errors.forCode(ours.code())).isSameAs(ours);
            if (kafka.exception() != null && ours != Errors.UNKNOWN_SERVER_ERROR) {
                assertThat(ours.retriable()).as(ours.name() + " retriable")
                        .isEqualTo(kafka.exception() instanceof org.apache.kafka.common.errors.RetriableException);
            }
        }
    }

    @Test
    void unknownCodesMapToUnknownServerError() {
        assertThat(Errors.forCode((short) 32_000)).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        assertThat(Errors.forCode((short) -7)).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
        assertThat(Errors.forCode((short) 20_000)).isEqualTo(Errors.UNKNOWN_SERVER_ERROR);
    }
}
