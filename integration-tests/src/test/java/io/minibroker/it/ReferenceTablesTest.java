package io.minibroker.it;

import io.micrometer.core.instrument.Meter;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The configuration and metrics references in docs/ name exactly what the broker has: no key or meter missing, none stale. */
class ReferenceTablesTest {

    private static final Pattern TABLE_ROW_KEY = Pattern.compile("^\\| `([a-z0-9.]+)` \\|", Pattern.MULTILINE);

    @Test
    void theConfigurationTableListsEveryBrokerKey() throws IOException {
        assertThat(rowKeys("configuration.md")).isEqualTo(new TreeSet<>(BrokerConfig.knownKeys().keySet()));
    }

    @Test
    void theMetricsTableListsEveryMeterOfARunningBroker() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start();
             KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
            producer.send(new ProducerRecord<>("metered", "v")).get(); // so that the per-log gauges exist
            // jvm.gc.pause is registered at the first collection the JVM reports: have one.
            Eventually.await(() -> {
                System.gc();
                return kafka.broker().meterRegistry().find("jvm.gc.pause").timer() != null;
            }, "a garbage collection to be reported");
            Set<String> meters = kafka.broker().meterRegistry().getMeters().stream()
                    .map(Meter::getId).map(Meter.Id::getName).collect(Collectors.toCollection(TreeSet::new));

            assertThat(rowKeys("metrics.md")).isEqualTo(meters);
        }
    }

    /** The first-column keys of the table rows in one document under docs/. */
    private static Set<String> rowKeys(String document) throws IOException {
        Matcher rows = TABLE_ROW_KEY.matcher(Files.readString(Path.of("..", "docs", document)));
        Set<String> keys = new TreeSet<>();
        while (rows.find()) {
            keys.add(rows.group(1));
        }
        return keys;
    }
}
