package io.minibroker.broker.authz;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupListing;
import org.apache.kafka.clients.admin.DescribeConsumerGroupsOptions;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The group APIs' ACLs as kafka-clients users meet them: OffsetCommit needs READ on the group and the topic,
 * OffsetFetch DESCRIBE on both (and leaves undescribable topics out of a whole group's offsets), DescribeGroups
 * DESCRIBE on the group, ListGroups lists only describable groups unless the principal may describe the cluster,
 * DeleteGroups and OffsetDelete DELETE on the group (OffsetDelete READ on the topic), and a KIP-848 consumer READ
 * on the group and DESCRIBE on its topics.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GroupAclsTest {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);
    private static final TopicPartition SECRET = new TopicPartition("secret", 0);

    @RegisterExtension
    final SecuredBroker broker = SecuredBroker.perTest(Map.of(), "orders", "secret");

    @BeforeEach
    void produceOne() throws Exception {
        try (KafkaProducer<String, String> admin = broker.producer("admin", Map.of())) {
            admin.send(new ProducerRecord<>("orders", "k", "v")).get();
        }
    }

    private void commitAsAdmin(String group, Map<TopicPartition, OffsetAndMetadata> offsets) {
        try (KafkaConsumer<String, String> admin = broker.consumer("admin", group, Map.of())) {
            admin.commitSync(offsets);
        }
    }

    @Test
    void committingNeedsReadOnTheGroupAndTheTopic() throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = Map.of(ORDERS, new OffsetAndMetadata(1));
        broker.allow("alice", ResourceType.TOPIC, "orders", READ);
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", "g", Map.of())) {
            assertThatThrownBy(() -> alice.commitSync(offsets)).isInstanceOf(GroupAuthorizationException.class);
        }
        broker.allow("carol", ResourceType.GROUP, "g", READ);
        broker.allow("carol", ResourceType.TOPIC, "orders", DESCRIBE);
        try (KafkaConsumer<String, String> carol = broker.consumer("carol", "g", Map.of())) {
            assertThatThrownBy(() -> carol.commitSync(offsets)).isInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.GROUP, "g", READ);
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", "g", Map.of())) {
            alice.commitSync(offsets);
            assertThat(alice.committed(Set.of(ORDERS)).get(ORDERS).offset()).isEqualTo(1);
        }
    }

    @Test
    void fetchingOffsetsHidesTopicsThePrincipalMayNotDescribe() throws Exception {
        commitAsAdmin("g", Map.of(ORDERS, new OffsetAndMetadata(1), SECRET, new OffsetAndMetadata(0)));
        try (Admin bob = broker.admin("bob")) {
            assertThatThrownBy(() -> bob.listConsumerGroupOffsets("g").partitionsToOffsetAndMetadata().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.GROUP, "g", DESCRIBE);
        broker.allow("alice", ResourceType.TOPIC, "orders", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThat(alice.listConsumerGroupOffsets("g").partitionsToOffsetAndMetadata().get().keySet())
                    .as("the whole group's offsets, secret left out").containsExactly(ORDERS);
        }
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", "g", Map.of())) {
            assertThatThrownBy(() -> alice.committed(Set.of(SECRET)))
                    .as("secret named").isInstanceOf(TopicAuthorizationException.class);
        }
    }

    @Test
    void describingListingAndDeletingGroupsNeedTheirRights() throws Exception {
        commitAsAdmin("g1", Map.of(ORDERS, new OffsetAndMetadata(1)));
        commitAsAdmin("g2", Map.of(ORDERS, new OffsetAndMetadata(1)));
        broker.allow("alice", ResourceType.GROUP, "g1", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThat(alice.listGroups().all().get()).extracting(GroupListing::groupId).containsExactly("g1");
            assertThat(alice.describeConsumerGroups(List.of("g1"), new DescribeConsumerGroupsOptions()
                    .includeAuthorizedOperations(true)).all().get().get("g1").authorizedOperations())
                    .containsExactly(DESCRIBE);
            assertThatThrownBy(() -> alice.describeConsumerGroups(List.of("g2")).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
            assertThatThrownBy(() -> alice.deleteConsumerGroups(List.of("g1")).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
        }
        broker.allow("bob", ResourceType.CLUSTER, "kafka-cluster", DESCRIBE);
        try (Admin bob = broker.admin("bob")) {
            assertThat(bob.listConsumerGroups().all().get()).extracting(ConsumerGroupListing::groupId)
                    .as("DESCRIBE on the cluster lists every group").containsExactlyInAnyOrder("g1", "g2");
        }
        broker.allow("alice", ResourceType.GROUP, "g1", DELETE);
        try (Admin alice = broker.admin("alice")) {
            alice.deleteConsumerGroups(List.of("g1")).all().get();
        }
        try (Admin admin = broker.admin("admin")) {
            assertThat(admin.listGroups().all().get()).extracting(GroupListing::groupId).containsExactly("g2");
        }
    }

    @Test
    void deletingOffsetsNeedsDeleteOnTheGroupAndReadOnTheTopic() throws Exception {
        commitAsAdmin("g", Map.of(ORDERS, new OffsetAndMetadata(1)));
        broker.allow("alice", ResourceType.TOPIC, "orders", DESCRIBE);
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.deleteConsumerGroupOffsets("g", Set.of(ORDERS)).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
            broker.allow("alice", ResourceType.GROUP, "g", DELETE);
            assertThatThrownBy(() -> alice.deleteConsumerGroupOffsets("g", Set.of(ORDERS)).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            broker.allow("alice", ResourceType.TOPIC, "orders", READ);
            alice.deleteConsumerGroupOffsets("g", Set.of(ORDERS)).all().get();
        }
    }

    @Test
    void consumerProtocolMembersNeedReadOnTheGroupAndDescribeOnTheirTopics() throws Exception {
        Map<String, Object> consumerProtocol = Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer");
        broker.allow("alice", ResourceType.TOPIC, "orders", READ);
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", "g848", consumerProtocol)) {
            alice.subscribe(List.of("orders"));
            assertThatThrownBy(() -> alice.poll(Duration.ofSeconds(20)))
                    .isInstanceOf(GroupAuthorizationException.class);
        }
        broker.allow("alice", ResourceType.GROUP, "g848", READ);
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", "g848", consumerProtocol)) {
            alice.subscribe(List.of("orders"));
            ConsumerRecords<String, String> records = ConsumerRecords.empty();
            for (int i = 0; i < 20 && records.isEmpty(); i++) {
                records = alice.poll(Duration.ofSeconds(1));
            }
            assertThat(records.count()).isEqualTo(1);
            broker.allow("bob", ResourceType.GROUP, "g848", DESCRIBE);
            try (Admin bob = broker.admin("bob")) {
                assertThatThrownBy(() -> bob.describeConsumerGroups(List.of("g848")).all().get())
                        .as("the assignment names orders, which bob may not describe")
                        .hasCauseInstanceOf(TopicAuthorizationException.class);
            }
            broker.allow("bob", ResourceType.TOPIC, "orders", DESCRIBE);
            try (Admin bob = broker.admin("bob")) {
                assertThat(bob.describeConsumerGroups(List.of("g848")).all().get().get("g848").members())
                        .hasSize(1);
            }
        }
    }

    /**
     * A member subscribed by regular expression is assigned only the matching topics its principal may describe,
     * as Kafka's group coordinator filters a regex's matches: alice may read orders but not secret, and her pattern
     * matches both.
     */
    @Test
    void aRegexSubscriptionLeavesOutTopicsTheMemberMayNotDescribe() throws Exception {
        broker.allow("alice", ResourceType.GROUP, "g-regex", READ);
        broker.allow("alice", ResourceType.TOPIC, "orders", READ);
        try (KafkaConsumer<String, String> alice = broker.consumer("alice", "g-regex",
                Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer"))) {
            alice.subscribe(new SubscriptionPattern("orders|secret"));
            ConsumerRecords<String, String> records = ConsumerRecords.empty();
            for (int i = 0; i < 20 && records.isEmpty(); i++) {
                records = alice.poll(Duration.ofSeconds(1));
            }
            assertThat(records.count()).isEqualTo(1);
            assertThat(alice.assignment()).extracting(TopicPartition::topic).containsOnly("orders");
        }
    }
}
