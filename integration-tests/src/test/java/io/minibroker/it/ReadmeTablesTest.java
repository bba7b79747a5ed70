package io.minibroker.it;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.server.EmbeddedBroker;
import io.micrometer.core.instrument.Meter;
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

/** The README's configuration and metrics tables name exactly what the broker has: no key or meter missing, none stale. */
class ReadmeTablesTest {

    private static final Pattern TABLE_ROW_KEY = Pattern.compile("^\\| `([a-z0-9.]+)` \\|", Pattern.MULTILINE);

    @Test
    void theConfigurationTableListsEveryBrokerKey() throws IOException {
        assertThat(rowKeys("## Configuration")).isEqualTo(new TreeSet<>(BrokerConfig.knownKeys().keySet()));
    }

    @Test
    void theMetricsTableListsEveryMeterOfARunningBroker() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start();
             KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
            producer.send(new ProducerRecord<>("metered", "v")).get(); // so that the per-log gauges exist
            Set<String> meters = kafka.broker().meterRegistry().getMeters().stream()
                    .map(Meter::getId).map(Meter.Id::getName).collect(Collectors.toCollection(TreeSet::new));

            assertThat(rowKeys("## Metrics")).isEqualTo(meters);
        }
    }

    /** The first-column keys of the table rows between this heading and the next. */
    private static Set<String> rowKeys(String heading) throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        int start = readme.indexOf("\n" + heading + "\n");
        assertThat(start).as("README has a section %s", heading).isNotNegative();
        int end = readme.indexOf("\n## ", start + heading.length() + 1);
        Matcher rows = TABLE_ROW_KEY.matcher(readme.substring(start, end < 0 ? readme.length() : end));
        Set<String> keys = new TreeSet<>();
        while (rows.find()) {
            keys.add(rows.group(1));
        }
        return keys;
    }
}
