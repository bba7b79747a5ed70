package io.minibroker.broker.authz;

import io.minibroker.broker.server.Eventually;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.apache.kafka.common.acl.AclOperation.CREATE;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The topic APIs' ACLs as kafka-clients users meet them: Fetch needs READ, ListOffsets DESCRIBE, DeleteRecords
 * DELETE, DescribeProducers READ, and a Metadata request that would auto-create a topic CREATE; each refusal is a
 * TopicAuthorizationException, and the same call succeeds once the right is granted.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TopicAclsTest {

    private static final TopicPartition LOGS = new TopicPartition("logs", 0);

    @RegisterExtension
    final SecuredBroker broker = SecuredBroker.perTest(Map.of(), "logs");

    @BeforeEach
    void produceOne() throws Exception {
        try (KafkaProducer<String, String> admin = broker.producer("admin", Map.of())) {
            admin.send(new ProducerRecord<>("logs", "k", "v")).get();
        }
    }

    @Test
    void fetchingNeedsReadOnTheTopic() throws Exception {
        broker.allow("bob", ResourceType.TOPIC, "logs", DESCRIBE);
        try (KafkaConsumer<String, String> bob = broker.consumer("bob", null, Map.of())) {
            bob.assign(List.of(LOGS));
            bob.seek(LOGS, 0);
            assertThatThrownBy(() -> bob.poll(Duration.ofSeconds(20)))
                    .as("DESCRIBE lets bob see the topic, only READ lets him fetch")
                    .isInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.TOPIC, "logs", READ);
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", null, Map.of())) {
            alice.assign(List.of(LOGS));
            alice.seek(LOGS, 0);
            ConsumerRecords<String, String> records = alice.poll(Duration.ofSeconds(20));
            assertThat(records.count()).isEqualTo(1);
        }
    }

    @Test
    void anAcksZeroProduceIsAppendedOnlyWhereAllowed() throws Exception {
        broker.allow("bob", ResourceType.TOPIC, "logs", DESCRIBE);
        broker.allow("alice", ResourceType.TOPIC, "logs", WRITE);
        Map<String, Object> acksZero = Map.of(ProducerConfig.ACKS_CONFIG, "0",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        for (String user : List.of("bob", "alice")) {
            try (KafkaProducer<String, String> producer = broker.producer(user, acksZero)) {
                producer.send(new ProducerRecord<>("logs", "k", user)).get();
            }
        }
        try (KafkaConsumer<String, String> admin = broker.consumer("admin", null, Map.of())) {
            Eventually.await(() -> admin.endOffsets(List.of(LOGS)).get(LOGS) == 2, "alice's record appended");
            admin.assign(List.of(LOGS));
            admin.seek(LOGS, 0);
            List<String> values = new ArrayList<>();
            while (values.size() < 2) {
                admin.poll(Duration.ofSeconds(1)).forEach(r -> values.add(r.value()));
            }
            assertThat(values).as("bob's record refused, the connection closed").containsExactly("v", "alice");
        }
    }

    @Test
    void listingOffsetsNeedsDescribe() throws Exception {
        try (Admin bob = broker.admin("bob")) {
            assertThatThrownBy(() -> bob.listOffsets(Map.of(LOGS, OffsetSpec.latest())).all().get())
                    .isInstanceOf(ExecutionException.class).hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("bob", ResourceType.TOPIC, "logs", DESCRIBE);
        try (Admin bob = broker.admin("bob")) {
            assertThat(bob.listOffsets(Map.of(LOGS, OffsetSpec.latest())).all().get().get(LOGS).offset())
                    .isEqualTo(1);
        }
    }

    @Test
    void deletingRecordsNeedsDelete() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "logs", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.deleteRecords(Map.of(LOGS, RecordsToDelete.beforeOffset(1))).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.TOPIC, "logs", DELETE);
        try (Admin alice = broker.admin("alice")) {
            assertThat(alice.deleteRecords(Map.of(LOGS, RecordsToDelete.beforeOffset(1))).lowWatermarks().get(LOGS)
                    .get().lowWatermark()).isEqualTo(1);
        }
    }

    @Test
    void describingProducersNeedsRead() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "logs", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.describeProducers(List.of(LOGS)).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.TOPIC, "logs", READ);
        try (Admin alice = broker.admin("alice")) {
            assertThat(alice.describeProducers(List.of(LOGS)).all().get()).containsKey(LOGS);
        }
    }

    @Test
    void metadataHidesTopicsAndAutoCreatesOnlyWithCreate() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "fresh", WRITE);
        try (KafkaProducer<String, String> alice = broker.producer("alice",
                Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
            assertThatThrownBy(() -> alice.send(new ProducerRecord<>("fresh", "k", "v")).get())
                    .as("WRITE (so DESCRIBE) on a topic that does not exist, but no CREATE")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        try (Admin admin = broker.admin("admin")) {
            assertThat(admin.listTopics().names().get()).doesNotContain("fresh");
        }
        broker.allow("alice", ResourceType.TOPIC, "fresh", CREATE);
        try (KafkaProducer<String, String> alice = broker.producer("alice",
                Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false))) {
            alice.send(new ProducerRecord<>("fresh", "k", "v")).get();
        }
        try (Admin alice = broker.admin("alice")) {
            assertThat(alice.listTopics().names().get()).as("logs is hidden from alice")
                    .isEqualTo(Set.of("fresh"));
        }
    }
}
