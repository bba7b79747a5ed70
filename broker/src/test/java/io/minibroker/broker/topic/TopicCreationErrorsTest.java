package io.minibroker.broker.topic;

import io.minibroker.protocol.error.Errors;
import io.minibroker.purgatory.time.ManualClock;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Refused internal topics kept as Kafka's ExpiringErrorCache keeps them, time driven by a ManualClock. */
class TopicCreationErrorsTest {

    private final ManualClock clock = new ManualClock();
    private final TopicCreationErrors errors = new TopicCreationErrors(clock::nowMs);

    @Test
    void aRefusalIsKeptForItsPeriodThenForgotten() {
        errors.remember("app-changelog", "too few brokers", 10_000);
        assertThat(errors.holds("app-changelog")).isTrue();
        assertThat(errors.of(List.of("app-changelog", "app-repartition")))
                .isEqualTo(Map.of("app-changelog", "too few brokers"));

        clock.advance(9_999);
        assertThat(errors.holds("app-changelog")).isTrue();
        clock.advance(1); // expired at exactly its period, as Kafka's (kept while the expiry is after now)
        assertThat(errors.holds("app-changelog")).isFalse();
        assertThat(errors.of(List.of("app-changelog"))).isEmpty();
    }

    @Test
    void aNewerRefusalOfTheTopicReplacesTheOlderAndItsPeriod() {
        errors.remember("t", "first", 1_000);
        clock.advance(500);
        errors.remember("t", "second", 1_000);
        clock.advance(600); // the first refusal's period is over; the second's is not
        errors.remember("other", "x", 1_000); // cleans up what expired: the first refusal's entry must not take "t"
        assertThat(errors.of(List.of("t"))).isEqualTo(Map.of("t", "second"));
        clock.advance(400);
        assertThat(errors.holds("t")).isFalse();
    }

    @Test
    void pastItsCapacityTheRefusalsThatExpireFirstAreForgotten() {
        TopicCreationErrors two = new TopicCreationErrors(clock::nowMs, 2);
        two.remember("a", "a", 3_000);
        two.remember("b", "b", 1_000);
        two.remember("c", "c", 2_000);
        assertThat(two.of(List.of("a", "b", "c"))).containsOnlyKeys("a", "c");
    }

    @Test
    void aRefusalWithoutAMessageKeepsTheErrorsOwnAndTheTopicsComeByName() {
        // Kafka's Errors.POLICY_VIOLATION.message(), as its cache keeps it for a result without a message.
        assertThat(TopicCreationErrors.messageOf(Errors.POLICY_VIOLATION, ""))
                .isEqualTo("Request parameters do not satisfy the configured policy.");
        assertThat(TopicCreationErrors.messageOf(Errors.POLICY_VIOLATION, null))
                .isEqualTo("Request parameters do not satisfy the configured policy.");
        assertThat(TopicCreationErrors.messageOf(Errors.POLICY_VIOLATION, "refused")).isEqualTo("refused");
        errors.remember("z", "1", 100);
        errors.remember("a", "2", 100);
        assertThat(errors.of(List.of("z", "a")).keySet()).containsExactly("a", "z");
    }
}
