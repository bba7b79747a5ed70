package io.minibroker.broker.authz;

import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.apache.kafka.common.acl.AclOperation.ALTER_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.DELETE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.DESCRIBE_CONFIGS;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The share-group APIs' ACLs as kafka-clients 4.4 users meet them: a {@code KafkaShareConsumer} needs READ on the
 * group (ShareGroupHeartbeat, ShareFetch) and READ on the topic (ShareFetch) besides DESCRIBE on it; the Admin's
 * share-group calls need DESCRIBE (describe, list offsets), READ (alter offsets) or DELETE (delete offsets) on the
 * group and DESCRIBE or READ on the topic; the group's configs DESCRIBE_CONFIGS and ALTER_CONFIGS on the group.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareGroupAclsTest {

    private static final Duration POLL = Duration.ofMillis(100);
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @RegisterExtension
    final SecuredBroker broker = SecuredBroker.perTest(TestBrokers.SHARE_HEARTBEAT_EVERY_SECOND, "orders");

    @BeforeEach
    void produceOneFromTheStart() throws Exception {
        try (KafkaProducer<String, String> admin = broker.producer("admin", Map.of())) {
            admin.send(new ProducerRecord<>("orders", "k", "v")).get();
        }
        try (Admin admin = broker.admin("admin")) {
            admin.incrementalAlterConfigs(Map.of(group("g"), earliest())).all().get();
        }
    }

    private static ConfigResource group(String name) {
        return new ConfigResource(ConfigResource.Type.GROUP, name);
    }

    private static List<AlterConfigOp> earliest() {
        return List.of(new AlterConfigOp(new ConfigEntry("share.auto.offset.reset", "earliest"),
                AlterConfigOp.OpType.SET));
    }

    private KafkaShareConsumer<String, String> shareConsumer(String user) {
        Map<String, Object> config = broker.client(user);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "g");
        KafkaShareConsumer<String, String> consumer = new KafkaShareConsumer<>(config, new StringDeserializer(),
                new StringDeserializer());
        consumer.subscribe(List.of("orders"));
        return consumer;
    }

    /** Polls until a record comes (its value) or the poll throws. */
    private static String firstValue(KafkaShareConsumer<String, String> consumer) {
        while (true) {
            for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                return record.value();
            }
        }
    }

    @Test
    void aShareConsumerNeedsReadOnTheGroupAndTheTopic() throws Exception {
        broker.allow("alice", ResourceType.TOPIC, "orders", READ, DESCRIBE);
        try (KafkaShareConsumer<String, String> alice = shareConsumer("alice")) {
            assertThatThrownBy(() -> firstValue(alice)).isInstanceOf(GroupAuthorizationException.class);
        }
        broker.allow("carol", ResourceType.GROUP, "g", READ);
        broker.allow("carol", ResourceType.TOPIC, "orders", DESCRIBE);
        try (KafkaShareConsumer<String, String> carol = shareConsumer("carol")) {
            assertThatThrownBy(() -> firstValue(carol)).isInstanceOf(TopicAuthorizationException.class);
        }
        broker.allow("bob", ResourceType.GROUP, "g", READ);
        broker.allow("bob", ResourceType.TOPIC, "orders", READ, DESCRIBE);
        try (KafkaShareConsumer<String, String> bob = shareConsumer("bob")) {
            assertThat(firstValue(bob)).isEqualTo("v");
        }
    }

    /**
     * A member whose READ on the topic is taken away while its share session holds the partition is refused on its
     * next fetch, and nothing is acquired for it any more: a record appended meanwhile goes to another member at once,
     * not after an acquisition lock (a minute here) times out, as Kafka checks before it fetches.
     */
    @Test
    void aMemberWhoseReadIsTakenAwayAcquiresNothingMore() throws Exception {
        try (Admin admin = broker.admin("admin")) {
            admin.incrementalAlterConfigs(Map.of(group("g"), List.of(new AlterConfigOp(
                    new ConfigEntry("share.record.lock.duration.ms", "60000"), AlterConfigOp.OpType.SET)))).all().get();
        }
        broker.allow("bob", ResourceType.GROUP, "g", READ);
        broker.allow("bob", ResourceType.TOPIC, "orders", READ, DESCRIBE);
        try (KafkaShareConsumer<String, String> bob = shareConsumer("bob")) {
            assertThat(firstValue(bob)).isEqualTo("v");
            broker.add(new ResourcePattern(ResourceType.TOPIC, "orders", PatternType.LITERAL), "bob",
                    AclPermissionType.DENY, READ);
            try (KafkaProducer<String, String> producer = broker.producer("admin", Map.of())) {
                producer.send(new ProducerRecord<>("orders", "k", "w")).get();
            }
            assertThatThrownBy(() -> firstValue(bob)).isInstanceOf(TopicAuthorizationException.class);

            try (KafkaShareConsumer<String, String> admin = shareConsumer("admin")) { // bob's session still open
                List<String> values = new java.util.ArrayList<>();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (values.isEmpty() && System.nanoTime() < deadline) {
                    admin.poll(POLL).forEach(record -> values.add(record.value()));
                }
                assertThat(values).containsExactly("w");
            }
        }
    }

    @Test
    void theGroupsConfigsNeedDescribeConfigsAndAlterConfigsOnTheGroup() throws Exception {
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.describeConfigs(List.of(group("g"))).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
            assertThatThrownBy(() -> alice.incrementalAlterConfigs(Map.of(group("g"), earliest())).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
            broker.allow("alice", ResourceType.GROUP, "g", DESCRIBE_CONFIGS, ALTER_CONFIGS);
            alice.incrementalAlterConfigs(Map.of(group("g"), earliest())).all().get();
            assertThat(alice.describeConfigs(List.of(group("g"))).all().get().get(group("g"))
                    .get("share.auto.offset.reset").value()).isEqualTo("earliest");
        }
    }

    /** Has the super user's share consumer take the record, so that the group has a share partition, and leave. */
    private void consumeAsAdmin() {
        try (KafkaShareConsumer<String, String> admin = shareConsumer("admin")) {
            assertThat(firstValue(admin)).isEqualTo("v");
            admin.commitSync();
        }
    }

    private static Map<TopicPartition, SharePartitionOffsetInfo> offsets(Admin admin) throws Exception {
        return admin.listShareGroupOffsets(Map.of("g", new ListShareGroupOffsetsSpec())).partitionsToOffsetInfo("g")
                .get();
    }

    @Test
    void describingAShareGroupAndItsOffsetsNeedsDescribe() throws Exception {
        consumeAsAdmin();
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.describeShareGroups(List.of("g")).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
            assertThatThrownBy(() -> offsets(alice)).hasCauseInstanceOf(GroupAuthorizationException.class);

            broker.allow("alice", ResourceType.GROUP, "g", DESCRIBE);
            assertThat(alice.describeShareGroups(List.of("g")).all().get().get("g").groupId()).isEqualTo("g");
            assertThat(offsets(alice)).doesNotContainKey(ORDERS); // a topic she may not describe is left out
            // asked for by name, it is answered TOPIC_AUTHORIZATION_FAILED, which the Admin skips (with a warning)
            assertThat(alice.listShareGroupOffsets(Map.of("g", new ListShareGroupOffsetsSpec()
                    .topicPartitions(List.of(ORDERS)))).partitionsToOffsetInfo("g").get()).doesNotContainKey(ORDERS);

            broker.allow("alice", ResourceType.TOPIC, "orders", DESCRIBE);
            // The start offset v's acknowledgement was written with, before it moved past v (as Kafka's).
            assertThat(offsets(alice).get(ORDERS).startOffset()).isEqualTo(0);
        }
    }

    @Test
    void alteringOffsetsNeedsReadAndDeletingThemDeleteOnTheGroupAndReadOnTheTopic() throws Exception {
        consumeAsAdmin();
        try (Admin alice = broker.admin("alice")) {
            assertThatThrownBy(() -> alice.alterShareGroupOffsets("g", Map.of(ORDERS, 0L)).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);
            assertThatThrownBy(() -> alice.deleteShareGroupOffsets("g", Set.of("orders")).all().get())
                    .hasCauseInstanceOf(GroupAuthorizationException.class);

            broker.allow("alice", ResourceType.GROUP, "g", READ, DELETE);
            assertThatThrownBy(() -> alice.alterShareGroupOffsets("g", Map.of(ORDERS, 0L)).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
            assertThatThrownBy(() -> alice.deleteShareGroupOffsets("g", Set.of("orders")).all().get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);

            broker.allow("alice", ResourceType.TOPIC, "orders", READ);
            alice.alterShareGroupOffsets("g", Map.of(ORDERS, 0L)).all().get();
            try (Admin admin = broker.admin("admin")) {
                assertThat(offsets(admin).get(ORDERS).startOffset()).isEqualTo(0);
                alice.deleteShareGroupOffsets("g", Set.of("orders")).all().get();
                assertThat(offsets(admin)).doesNotContainKey(ORDERS);
            }
        }
    }
}
