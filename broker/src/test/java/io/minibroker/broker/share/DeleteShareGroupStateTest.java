package io.minibroker.broker.share;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DeleteGroups of a share group deletes its share-partition state too, as Kafka's GroupCoordinatorService does
 * through its persister: a group of the same id made again starts where {@code share.auto.offset.reset} says, not
 * where the deleted group was. A group with members is NON_EMPTY_GROUP and keeps its state.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DeleteShareGroupStateTest {

    private static final TopicPartition PARTITION = new TopicPartition(ShareBroker.TOPIC, 0);

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    @Test
    void aDeletedShareGroupMadeAgainStartsAtTheResetPosition() throws Exception {
        broker.produce(5);
        try (Admin admin = broker.admin()) {
            admin.alterShareGroupOffsets("g", Map.of(PARTITION, 3L)).all().get();
        }
        KafkaShareConsumer<String, String> first = broker.shareConsumer("g");
        assertThat(broker.acceptEach(first, 2)).containsExactly("v3", "v4");
        try (Admin admin = broker.admin()) {
            assertThatThrownBy(() -> admin.deleteShareGroups(List.of("g")).all().get())
                    .hasCauseInstanceOf(GroupNotEmptyException.class);
            // Kept: the start offset the acknowledgements were written with, 3 (or 4 had v3 and v4 come apart).
            assertThat(ShareBroker.startOffset(admin, "g")).isBetween(3L, 4L);
        }
        broker.close(first);
        try (Admin admin = broker.admin()) {
            admin.deleteShareGroups(List.of("g")).all().get();
            assertThatThrownBy(() -> admin.describeShareGroups(List.of("g")).all().get())
                    .hasCauseInstanceOf(GroupIdNotFoundException.class);
            // and its offsets are none (Kafka lists none, without an error, for a group that does not exist)
            assertThat(admin.listShareGroupOffsets(Map.of("g", new ListShareGroupOffsetsSpec()))
                    .partitionsToOffsetInfo("g").get()).isEmpty();
        }

        broker.produce(3); // offsets 5 to 7: the deleted group's state (start offset 5) would deliver them
        KafkaShareConsumer<String, String> second = broker.shareConsumer("g");
        // share.auto.offset.reset=latest: the new group starts at the high watermark of its first fetch, 8; that
        // fetch parks, there being nothing past it.
        List<Long> offsets = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (broker.parkedShareFetches() == 0 && offsets.isEmpty()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            received(second, offsets);
        }
        assertThat(offsets).isEmpty();
        broker.produce(1);
        while (offsets.isEmpty()) {
            assertThat(System.nanoTime()).isLessThan(deadline);
            received(second, offsets);
        }
        assertThat(offsets).containsExactly(8L);
        broker.close(second);
    }

    private static void received(KafkaShareConsumer<String, String> consumer, List<Long> offsets) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(100))) {
            offsets.add(record.offset());
            consumer.acknowledge(record, AcknowledgeType.ACCEPT);
        }
    }
}
