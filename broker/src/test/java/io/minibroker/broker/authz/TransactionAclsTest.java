package io.minibroker.broker.authz;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.IDEMPOTENT_WRITE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.apache.kafka.common.acl.AclOperation.WRITE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The transaction APIs' ACLs as kafka-clients users meet them: a transactional producer needs WRITE on its
 * transactional id (FindCoordinator, InitProducerId, EndTxn) and on each topic it writes, sending offsets READ on
 * the group; an idempotent producer IDEMPOTENT_WRITE on the cluster or WRITE on some topic; DescribeTransactions and
 * ListTransactions DESCRIBE on the transactional id.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionAclsTest {

    @RegisterExtension
    final SecuredBroker broker = SecuredBroker.perTest(Map.of(), "payments", "audit");

    private KafkaProducer<String, String> transactional(String user, String transactionalId) {
        return broker.producer(user, Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId));
    }

    @Test
    void aTransactionalProducerNeedsWriteOnItsTransactionalIdAndItsTopics() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "payments", WRITE);
        try (KafkaProducer<String, String> alice = transactional("alice", "payer")) {
            assertThatThrownBy(alice::initTransactions).isInstanceOf(TransactionalIdAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.TRANSACTIONAL_ID, "payer", WRITE);
        broker.allow("alice", ResourceType.TOPIC, "audit", DESCRIBE);
        try (KafkaProducer<String, String> alice = transactional("alice", "payer")) {
            alice.initTransactions();
            alice.beginTransaction();
            alice.send(new ProducerRecord<>("payments", "k", "v")).get();
            alice.commitTransaction();
            alice.beginTransaction();
            assertThatThrownBy(() -> alice.send(new ProducerRecord<>("audit", "k", "v")).get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            alice.abortTransaction();
        }
    }

    @Test
    void sendingOffsetsNeedsReadOnTheGroup() throws Exception {
        broker.allow("alice", ResourceType.TRANSACTIONAL_ID, "payer", WRITE);
        broker.allow("alice", ResourceType.TOPIC, "payments", WRITE, READ);
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(new TopicPartition("payments", 0),
                new OffsetAndMetadata(0));
        try (KafkaProducer<String, String> alice = transactional("alice", "payer")) {
            alice.initTransactions();
            alice.beginTransaction();
            alice.send(new ProducerRecord<>("payments", "k", "v")).get();
            assertThatThrownBy(() -> alice.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata("g")))
                    .isInstanceOf(GroupAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.GROUP, "g", READ);
        try (KafkaProducer<String, String> alice = transactional("alice", "payer")) {
            alice.initTransactions();
            alice.beginTransaction();
            alice.send(new ProducerRecord<>("payments", "k", "v")).get();
            alice.sendOffsetsToTransaction(offsets, new ConsumerGroupMetadata("g"));
            alice.commitTransaction();
        }
    }

    @Test
    void anIdempotentProducerNeedsIdempotentWriteOrWriteOnSomeTopic() throws Exception {
        broker.allow("bob", ResourceType.TOPIC, "payments", DESCRIBE);
        try (KafkaProducer<String, String> bob = broker.producer("bob", Map.of())) {
            assertThatThrownBy(() -> bob.send(new ProducerRecord<>("payments", "k", "v")).get())
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }
        broker.allow("bob", ResourceType.CLUSTER, "kafka-cluster", IDEMPOTENT_WRITE);
        try (KafkaProducer<String, String> bob = broker.producer("bob", Map.of())) {
            assertThatThrownBy(() -> bob.send(new ProducerRecord<>("payments", "k", "v")).get())
                    .as("an id, but still no WRITE on the topic")
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("carol", ResourceType.TOPIC, "payments", WRITE);
        try (KafkaProducer<String, String> carol = broker.producer("carol", Map.of())) {
            carol.send(new ProducerRecord<>("payments", "k", "v")).get();
        }
    }

    @Test
    void describingAndListingTransactionsNeedDescribeOnTheTransactionalId() throws Exception {
        try (KafkaProducer<String, String> admin = transactional("admin", "payer")) {
            admin.initTransactions();
            admin.beginTransaction();
            admin.send(new ProducerRecord<>("payments", "k", "v")).get();
            try (Admin alice = broker.admin("alice")) {
                assertThat(alice.listTransactions().all().get()).isEmpty();
                assertThatThrownBy(() -> alice.describeTransactions(List.of("payer")).all().get())
                        .hasCauseInstanceOf(TransactionalIdAuthorizationException.class);
            }
            broker.allow("alice", ResourceType.TRANSACTIONAL_ID, "payer", DESCRIBE);
            try (Admin alice = broker.admin("alice")) {
                assertThat(alice.listTransactions().all().get()).extracting(TransactionListing::transactionalId)
                        .containsExactly("payer");
                assertThat(alice.describeTransactions(List.of("payer")).all().get().get("payer").topicPartitions())
                        .as("payments is not describable by alice").isEmpty();
                broker.allow("alice", ResourceType.TOPIC, "payments", DESCRIBE);
                assertThat(alice.describeTransactions(List.of("payer")).all().get().get("payer").topicPartitions())
                        .containsExactly(new TopicPartition("payments", 0));
            }
            admin.abortTransaction();
        }
    }
}
