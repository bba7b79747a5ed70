package io.minibroker.it;

import io.micrometer.core.instrument.Meter;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.embedded.EmbeddedBroker;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.quota.ClientQuotaAlteration;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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

    /**
     * The meters only a cluster's brokers have (the replication throttles' byte rates, with the replica manager's
     * other meters): listed here, as the broker checked is a single node.
     */
    private static final Set<String> CLUSTER_ONLY_METERS = Set.of("kafka.server.leaderreplication.byte.rate",
            "kafka.server.followerreplication.byte.rate");

    @Test
    void theMetricsTableListsEveryMeterOfARunningBroker() throws Exception {
        try (EmbeddedBroker kafka = EmbeddedBroker.start();
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
             KafkaProducer<String, String> producer = Clients.producer(kafka.bootstrapServers())) {
            // Every client under each kind of client quota, so that the quotas' per-client meters exist too: the
            // topic's creation records a controller mutation, the produce its bytes and time, the read a fetch.
            admin.alterClientQuotas(List.of(new ClientQuotaAlteration(
                    new ClientQuotaEntity(Collections.singletonMap(ClientQuotaEntity.CLIENT_ID, null)),
                    List.of(new ClientQuotaAlteration.Op("producer_byte_rate", 1e9),
                            new ClientQuotaAlteration.Op("consumer_byte_rate", 1e9),
                            new ClientQuotaAlteration.Op("request_percentage", 1e6),
                            new ClientQuotaAlteration.Op("controller_mutation_rate", 1e6))))).all().get();
            admin.createTopics(List.of(new NewTopic("metered", 1, (short) 1))).all().get();
            producer.send(new ProducerRecord<>("metered", "v")).get(); // so that the per-log gauges exist
            assertThat(Clients.readValues(kafka.bootstrapServers(), "metered", 1)).containsExactly("v");
            // jvm.gc.pause is registered at the first collection the JVM reports: have one.
            Eventually.await(() -> {
                System.gc();
                return kafka.broker().meterRegistry().find("jvm.gc.pause").timer() != null;
            }, "a garbage collection to be reported");
            Set<String> meters = kafka.broker().meterRegistry().getMeters().stream()
                    .map(Meter::getId).map(Meter.Id::getName).collect(Collectors.toCollection(TreeSet::new));

            meters.addAll(CLUSTER_ONLY_METERS);

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
