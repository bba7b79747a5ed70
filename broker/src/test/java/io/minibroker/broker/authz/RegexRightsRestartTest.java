package io.minibroker.broker.authz;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.MemberAssignment;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.apache.kafka.common.acl.AclOperation.DESCRIBE;
import static org.apache.kafka.common.acl.AclOperation.READ;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A KIP-848 member's regular expression after a restart: the rights that filter its matches (DESCRIBE on each topic)
 * come with its heartbeats and are not in the group's records, so until it heartbeats again the restored member's
 * expression matches no topic it did not hold; an assignment computed meanwhile (another member joins) never gives
 * it a topic its principal may not describe.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RegexRightsRestartTest {

    private static final Duration POLL = Duration.ofMillis(200);

    @RegisterExtension
    final SecuredBroker broker = SecuredBroker.perTest(Map.of(), "orders");

    private static Map<String, Object> consumerProtocol(String clientId) {
        return Map.of(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "consumer", ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    }

    @Test
    void aRestoredRegexMemberIsNotAssignedATopicItMayNotDescribe() throws Exception {
        try (Admin admin = broker.admin("admin")) { // four partitions: a fair share takes some from the one of orders
            admin.createTopics(List.of(new NewTopic("orders-secret", 4, (short) 1))).all().get();
        }
        broker.allow("bob", ResourceType.GROUP, "g", READ);
        broker.allow("bob", ResourceType.TOPIC, "orders", READ, DESCRIBE);
        KafkaConsumer<String, String> bob = broker.consumer("bob", "g", consumerProtocol("bob"));
        bob.subscribe(new SubscriptionPattern("orders.*"));
        while (bob.assignment().isEmpty()) {
            bob.poll(POLL);
        }
        assertThat(bob.assignment()).containsExactly(new TopicPartition("orders", 0));

        // bob's member outlives the broker's stop: its close, with the broker down, cannot leave the group
        broker.restart(() -> bob.close(CloseOptions.timeout(Duration.ZERO)));

        try (KafkaConsumer<String, String> admin = broker.consumer("admin", "g", consumerProtocol("admin"))) {
            admin.subscribe(List.of("orders", "orders-secret")); // joining bumps the epoch: a new target for all
            while (admin.assignment().isEmpty()) {
                admin.poll(POLL);
            }
            try (Admin describer = broker.admin("admin")) {
                Collection<MemberDescription> members = describer.describeConsumerGroups(List.of("g")).all().get()
                        .get("g").members();
                MemberDescription restored = members.stream().filter(m -> m.clientId().equals("bob"))
                        .findFirst().orElseThrow();
                Set<String> targetTopics = restored.targetAssignment().map(MemberAssignment::topicPartitions)
                        .orElseThrow().stream().map(TopicPartition::topic).collect(Collectors.toSet());
                assertThat(targetTopics).containsOnly("orders");
                assertThat(restored.assignment().topicPartitions()).extracting(TopicPartition::topic)
                        .containsOnly("orders");
            }
            assertThat(admin.assignment()).extracting(TopicPartition::topic).containsOnly("orders-secret");
        }
    }
}
