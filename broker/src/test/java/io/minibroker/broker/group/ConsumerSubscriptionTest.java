package io.minibroker.broker.group;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.message.ConsumerProtocolSubscription;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Topics read from subscriptions as kafka-clients 4.4 writes them, and metadata that is not one. */
class ConsumerSubscriptionTest {

    @Test
    void readsTheTopicsOfEverySubscriptionVersionKafkaClientsWrites() {
        ConsumerPartitionAssignor.Subscription subscription = new ConsumerPartitionAssignor.Subscription(
                List.of("orders", "payments"), ByteBuffer.wrap(new byte[] {1, 2}),
                List.of(new TopicPartition("orders", 0)), 7, Optional.of("rack-a"));
        for (short version = 0; version <= ConsumerProtocolSubscription.HIGHEST_SUPPORTED_VERSION; version++) {
            ByteBuffer encoded = ConsumerProtocol.serializeSubscription(subscription, version);
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);

            assertThat(ConsumerSubscription.topics(bytes)).as("version %d", version)
                    .hasValueSatisfying(topics -> assertThat(topics).containsExactlyInAnyOrder("orders", "payments"));
        }
    }

    @Test
    void metadataThatIsNotASubscriptionNamesNoTopic() {
        assertThat(ConsumerSubscription.topics(new byte[0])).isEmpty();
        assertThat(ConsumerSubscription.topics(new byte[] {0, 0, 0, 0, 0, 9, 0, 3})).as("9 topics in 2 bytes").isEmpty();
        byte[] truncated = Arrays.copyOf(new byte[] {0, 0, 0, 0, 0, 1, 0, 6, 'o', 'r'}, 10);
        assertThat(ConsumerSubscription.topics(truncated)).as("a name cut short").isEmpty();
    }
}
