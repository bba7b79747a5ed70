package io.minibroker.it;

import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.testkit.junit.BootstrapServers;
import io.minibroker.testkit.junit.MiniKafka;
import io.minibroker.testkit.junit.TopicNamespace;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The JUnit 5 extension as a user's test class would use it: one broker for the class, a namespace per test. */
@MiniKafka(config = "num.partitions=2")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MiniKafkaExtensionTest {

    private static final Set<String> BROKERS_SEEN = new HashSet<>();
    private static final Set<String> PREFIXES_SEEN = new HashSet<>();

    private TopicNamespace namespaceInBeforeEach;

    @BeforeEach
    void rememberNamespace(TopicNamespace topics) {
        namespaceInBeforeEach = topics;
    }

    @Test
    void firstTestSeesOnlyItsOwnTopics(@BootstrapServers String bootstrap, TopicNamespace topics) throws Exception {
        writeAndCheckIsolation(bootstrap, topics);
    }

    @Test
    void secondTestSeesOnlyItsOwnTopics(@BootstrapServers String bootstrap, TopicNamespace topics,
                                         EmbeddedBroker broker) throws Exception {
        assertThat(broker.bootstrapServers()).isEqualTo(bootstrap);
        writeAndCheckIsolation(bootstrap, topics);
    }

    @AfterAll
    static void bothTestsUsedOneBrokerAndTwoNamespaces() {
        assertThat(BROKERS_SEEN).hasSize(1);
        assertThat(PREFIXES_SEEN).hasSize(2);
    }

    private void writeAndCheckIsolation(String bootstrap, TopicNamespace topics) throws Exception {
        assertThat(topics).isSameAs(namespaceInBeforeEach);
        BROKERS_SEEN.add(bootstrap);
        PREFIXES_SEEN.add(topics.prefix());
        try (KafkaProducer<String, String> producer = Clients.producer(bootstrap);
             Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            producer.send(new ProducerRecord<>(topics.topic("orders"), "o")).get();
            producer.send(new ProducerRecord<>(topics.topic("payments"), "p")).get();

            Set<String> everyTopic = admin.listTopics().names().get();
            Set<String> mine = everyTopic.stream().filter(name -> name.startsWith(topics.prefix()))
                    .collect(Collectors.toSet());
            assertThat(mine).containsExactlyInAnyOrder(topics.topic("orders"), topics.topic("payments"));
            // The annotation's configuration reached the broker: auto-created topics have num.partitions.
            assertThat(admin.describeTopics(mine).allTopicNames().get().values())
                    .allSatisfy(description -> assertThat(description.partitions()).hasSize(2));
        }
    }
}
