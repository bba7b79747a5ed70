package io.minibroker.broker.group;

import io.minibroker.broker.topic.TopicMetadata;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The subscribed topics' metadata hash is the value Kafka 4.3.1's group coordinator computes for the same topics,
 * racks included, so that a group's metadata record holds what Kafka's would. The expected values are what Kafka
 * 4.3.1's Utils.computeTopicHash and computeGroupHash returned for these topics (an image of them with these racks,
 * run on Kafka's own classpath: its Utils cannot load beside the kafka-clients 4.4.0 these tests use).
 */
class MetadataHashKafkaTest {

    private static final TopicMetadata ORDERS = new TopicMetadata("orders", new UUID(0x0123_4567_89ab_cdefL, 42), 3,
            Map.of());
    private static final TopicMetadata PAYMENTS = new TopicMetadata("payments", new UUID(-7, 0x7fff_0000_1111L), 1,
            Map.of());
    /** The racks of each partition's replicas, in replica order (the hash sorts them). */
    private static final Map<String, List<List<String>>> RACKS = Map.of(
            "orders", List.of(List.of("rack-b", "rack-a"), List.of(), List.of("rack-c", "rack-a", "rack-c")),
            "payments", List.of(List.of("eu-west-1a")));
    private static final Map<String, List<List<String>>> NO_RACKS = Map.of(
            "orders", List.of(List.of(), List.of(), List.of()), "payments", List.of(List.of()));

    @Test
    void aTopicsHashIsKafkasWithAndWithoutRacks() {
        assertThat(MetadataHash.ofTopic(ORDERS, RACKS.get("orders"))).isEqualTo(-6477890927613763677L);
        assertThat(MetadataHash.ofTopic(PAYMENTS, RACKS.get("payments"))).isEqualTo(-9096476514135188973L);
        assertThat(MetadataHash.ofTopic(ORDERS, NO_RACKS.get("orders"))).isEqualTo(2741881505901473361L);
        assertThat(MetadataHash.ofTopic(PAYMENTS, NO_RACKS.get("payments"))).isEqualTo(-4447621843562810532L);
    }

    @Test
    void aGroupsHashIsKafkasOverItsTopicsInTheOrderOfTheirNames() {
        assertThat(MetadataHash.ofGroup(List.of(subscribed(PAYMENTS, RACKS), subscribed(ORDERS, RACKS))))
                .isEqualTo(7950526388021563961L);
        assertThat(MetadataHash.ofGroup(List.of(subscribed(ORDERS, NO_RACKS), subscribed(PAYMENTS, NO_RACKS))))
                .isEqualTo(-7577936967404423066L);
        assertThat(MetadataHash.ofGroup(List.of())).as("no subscribed topic exists").isZero();
    }

    @Test
    void aGroupsHashOverTopicNamesIsKafkasTooThoughTheCacheIsReused() {
        TopicHashCache hashes = cache(RACKS);
        assertThat(hashes.ofTopicNames(new TreeSet<>(Set.of("payments", "orders", "unknown"))))
                .isEqualTo(7950526388021563961L);
        assertThat(hashes.ofTopicNames(new TreeSet<>(Set.of("unknown")))).as("no subscribed topic exists").isZero();
        assertThat(cache(NO_RACKS).ofTopicNames(new TreeSet<>(Set.of("orders", "payments"))))
                .isEqualTo(-7577936967404423066L);
        assertThat(hashes.ofTopicNames(new TreeSet<>(Set.of("orders", "payments")))).as("the first again")
                .isEqualTo(7950526388021563961L);
    }

    private static ConsumerGroup.SubscribedTopic subscribed(TopicMetadata topic,
                                                            Map<String, List<List<String>>> racks) {
        return ConsumerGroup.SubscribedTopic.of(topic, cache(racks));
    }

    private static TopicHashCache cache(Map<String, List<List<String>>> racks) {
        Map<String, TopicMetadata> topics = Map.of(ORDERS.name(), ORDERS, PAYMENTS.name(), PAYMENTS);
        return new TopicHashCache(name -> Optional.ofNullable(topics.get(name)), topic -> racks.get(topic.name()));
    }
}
