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

    /**
     * Each default message we send is Kafka's own text for that error (the test classpath's kafka-clients 4.4.0
     * Errors.message()), but where 4.4.0 reworded one that a 4.3.1 broker sends: FENCED_STATE_EPOCH, whose 4.3.1 text
     * ("The share coordinator rejected ... share-group state epoch ...", read from the 4.3.1 jar) is ours.
     */
    @Test
    void everyDefaultMessageIsKafkas() {
        String unknown = org.apache.kafka.common.protocol.Errors.UNKNOWN_SERVER_ERROR.message();
        for (Errors ours : Errors.values()) {
            String message = DefaultMessages.of(ours);
            if (ours == Errors.FENCED_STATE_EPOCH) {
                assertThat(message).isEqualTo("The share coordinator rejected the request because the share-group"
                        + " state epoch did not match.");
            } else if (ours == Errors.UNKNOWN_SERVER_ERROR || !message.equals(unknown)) {
                assertThat(message).as(ours.name())
                        .isEqualTo(org.apache.kafka.common.protocol.Errors.forCode(ours.code()).message());
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
