package io.minibroker.broker.authz;

import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ACLs as kafka-clients users meet them, on a SASL PLAIN listener with the StandardAuthorizer: the super user
 * manages ACLs through Admin; a user produces only where an ALLOW (here prefixed) grants WRITE and no DENY
 * takes it back, sees in Metadata only the topics it may describe; the ACLs survive a restart.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AclClientsTest {

    @TempDir
    Path logDir;
    private SecuredBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void usersDoOnlyWhatTheirAclsGrantAndTheAclsSurviveARestart() throws Exception {
        broker = SecuredBroker.start(logDir);
        try (Admin admin = broker.admin("admin")) {
            admin.createTopics(List.of(new NewTopic("orders-1", 1, (short) 1), new NewTopic("orders-secret", 1,
                    (short) 1), new NewTopic("payments", 1, (short) 1))).all().get();
            admin.createAcls(List.of(
                    acl(new ResourcePattern(ResourceType.TOPIC, "orders-", PatternType.PREFIXED), "User:alice",
                            AclOperation.WRITE, AclPermissionType.ALLOW),
                    acl(new ResourcePattern(ResourceType.TOPIC, "orders-secret", PatternType.LITERAL), "User:alice",
                            AclOperation.WRITE, AclPermissionType.DENY),
                    acl(new ResourcePattern(ResourceType.TOPIC, "orders-1", PatternType.LITERAL), "User:carol",
                            AclOperation.READ, AclPermissionType.ALLOW))).all().get();
            assertThat(admin.describeAcls(AclBindingFilter.ANY).values().get()).hasSize(3);
        }
        assertThat(topicsSeenBy("alice")).containsExactlyInAnyOrder("orders-1", "orders-secret");
        assertThat(topicsSeenBy("bob")).isEmpty();
        assertThat(topicsSeenBy("admin")).contains("orders-1", "orders-secret", "payments");

        try (KafkaProducer<String, String> alice = producer("alice", true)) {
            alice.send(new ProducerRecord<>("orders-1", "k", "v")).get();
            assertThatThrownBy(() -> alice.send(new ProducerRecord<>("orders-secret", "k", "v")).get())
                    .as("DENY beats the prefixed ALLOW").hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        try (KafkaProducer<String, String> bob = producer("bob", false)) {
            assertThatThrownBy(() -> bob.send(new ProducerRecord<>("orders-1", "k", "v")).get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        Map<String, Object> carol = broker.client("carol");
        carol.put(ConsumerConfig.GROUP_ID_CONFIG, "carols-group");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(carol, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.subscribe(List.of("orders-1"));
            assertThatThrownBy(() -> consumer.poll(Duration.ofSeconds(20)))
                    .as("READ on the topic but none on the group").isInstanceOf(GroupAuthorizationException.class);
        }
        try (Admin bob = broker.admin("bob")) {
            assertThatThrownBy(() -> bob.describeAcls(AclBindingFilter.ANY).values().get())
                    .isInstanceOf(ExecutionException.class)
                    .hasCauseInstanceOf(ClusterAuthorizationException.class);
        }

        broker.restart();
        try (Admin admin = broker.admin("admin")) {
            assertThat(admin.describeAcls(new AclBindingFilter(new ResourcePatternFilter(ResourceType.TOPIC,
                    "orders-secret", PatternType.MATCH), AccessControlEntryFilter.ANY)).values().get())
                    .as("both bindings apply to orders-secret, after the restart too").hasSize(2);
            assertThat(admin.deleteAcls(List.of(new AclBindingFilter(ResourcePatternFilter.ANY,
                    new AccessControlEntryFilter("User:alice", null, AclOperation.WRITE, AclPermissionType.DENY))))
                    .all().get()).hasSize(1);
        }
        try (KafkaProducer<String, String> alice = producer("alice", true)) {
            alice.send(new ProducerRecord<>("orders-secret", "k", "v")).get();
        }
    }

    @Test
    void anotherAuthorizerClassStopsTheStartNamingTheKey() {
        Map<String, String> settings = SecuredBroker.settings();
        settings.put("authorizer.class.name", "kafka.security.authorizer.AclAuthorizer");
        assertThatThrownBy(() -> TestBrokers.start(logDir, settings)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("authorizer.class.name");
    }

    private static org.apache.kafka.common.acl.AclBinding acl(ResourcePattern pattern, String principal,
                                                             AclOperation operation, AclPermissionType permission) {
        return new org.apache.kafka.common.acl.AclBinding(pattern,
                new AccessControlEntry(principal, "*", operation, permission));
    }

    private java.util.Set<String> topicsSeenBy(String user) throws Exception {
        try (Admin admin = broker.admin(user)) {
            return admin.listTopics().names().get();
        }
    }

    private KafkaProducer<String, String> producer(String user, boolean idempotent) {
        return broker.producer(user, Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, idempotent));
    }
}
