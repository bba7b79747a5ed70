package io.minibroker.broker.group;

import io.minibroker.broker.server.Broker;
import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.minibroker.broker.server.Eventually.await;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * DeleteTopics on a single node, seen by an unmodified admin client: every group's commits of the topic are gone
 * from OffsetFetch (of all the group's partitions, as the streams reset tool and {@code kafka-consumer-groups}
 * ask), the other topic's stay, and a restart replays the tombstones.
 */
@Timeout(120)
class DeletedTopicOffsetsWireTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition PAYMENTS_0 = new TopicPartition("payments", 0);

    @TempDir
    Path logDir;
    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void deleteTopicsDeletesEveryGroupsCommitsOfTheTopicForGood() throws Exception {
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1), new NewTopic("payments", 1, (short) 1)))
                    .all().get();
            for (String group : List.of("g1", "g2")) {
                admin.alterConsumerGroupOffsets(group, Map.of(ORDERS_0, new OffsetAndMetadata(5),
                        PAYMENTS_0, new OffsetAndMetadata(7))).all().get();
                assertThat(committed(admin, group)).containsOnlyKeys(ORDERS_0, PAYMENTS_0);
            }

            admin.deleteTopics(List.of("orders")).all().get();
            for (String group : List.of("g1", "g2")) {
                await(() -> committed(admin, group).equals(Map.of(PAYMENTS_0, 7L)),
                        "the commit of orders in " + group + " to be deleted");
            }
        }

        broker.close();
        broker = TestBrokers.start(logDir, Map.of());
        try (Admin admin = TestBrokers.admin(broker)) {
            for (String group : List.of("g1", "g2")) {
                assertThat(committed(admin, group)).as("after a restart, " + group).isEqualTo(Map.of(PAYMENTS_0, 7L));
            }
        }
    }

    private static Map<TopicPartition, Long> committed(Admin admin, String group) {
        Map<TopicPartition, Long> offsets = new HashMap<>();
        try {
            admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get()
                    .forEach((partition, offset) -> offsets.put(partition, offset.offset()));
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        return offsets;
    }
}
