package io.minibroker.broker.quota;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Rates idle for an hour are dropped, as Kafka expires quota sensors: made-up client ids do not pile up. */
class RateTableTest {

    @Test
    void ratesIdleForAnHourGoWhenTheTableHasGrownAndTheOthersStay() {
        RateTable<String> table = new RateTable<>(11, 1000);
        long start = 1_000_000;
        for (int i = 0; i < 1000; i++) {
            table.get("client-" + i, start).record(100, start);
        }
        long later = start + RateTable.IDLE_EXPIRY_MS + 1;
        table.get("client-0", later).record(100, later); // still in use

        for (int i = 0; i < 100; i++) { // the table reaches 1024 rates: the idle ones are looked for
            table.get("new-" + i, later).record(100, later);
        }

        assertThat(table.find("client-1")).as("idle for over an hour").isNull();
        assertThat(table.find("client-999")).isNull();
        assertThat(table.find("client-0")).as("recorded into since").isNotNull();
        assertThat(table.find("new-0")).isNotNull();
        assertThat(table.find("new-99")).as("made after the sweep").isNotNull();
    }
}
