package io.minibroker.broker.share;

import io.minibroker.broker.server.TestBrokers;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListShareGroupOffsetsSpec;
import org.apache.kafka.clients.admin.SharePartitionOffsetInfo;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * kafka-clients 4.4's Admin list/alter/deleteShareGroupOffsets against the share state of a group whose member is
 * a {@code KafkaShareConsumer}: offsets change only while the group has no members.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShareGroupOffsetsAdminTest {

    private static final TopicPartition PARTITION = new TopicPartition(ShareBroker.TOPIC, 0);
    private static final Duration POLL = Duration.ofMillis(100);

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest(TestBrokers.SHARE_HEARTBEAT_EVERY_SECOND);

    private static Map<TopicPartition, SharePartitionOffsetInfo> offsets(Admin admin, String group) throws Exception {
        return admin.listShareGroupOffsets(Map.of(group, new ListShareGroupOffsetsSpec()))
                .partitionsToOffsetInfo(group).get();
    }

    /**
     * Polls until the consumer has joined, been assigned the partition (once its share state is initialized) and
     * fetched: its fetch is parked, so the share partition is loaded, at the log end. The partition is listed by
     * Admin.listShareGroupOffsets earlier, from its initialization on (start offset -1), which is not enough.
     */
    private void awaitSharePartition(Admin admin, KafkaShareConsumer<String, String> consumer) throws Exception {
        while (broker.parkedShareFetches() == 0) {
            consumer.poll(POLL);
        }
        assertThat(offsets(admin, "g")).containsKey(PARTITION);
    }

    /**
     * As Kafka, altering the offsets of a group id no group has makes an empty share group that holds them, which a
     * restart keeps (franz-go's TestShareGroupOffsetsAdmin).
     */
    @Test
    void alteringTheOffsetsOfANewGroupIdMakesAnEmptyShareGroup() throws Exception {
        broker.produce(3);
        try (Admin admin = broker.admin()) {
            admin.alterShareGroupOffsets("fresh", Map.of(PARTITION, 1L)).all().get();
            assertThat(offsets(admin, "fresh").get(PARTITION).startOffset()).isEqualTo(1);
            assertThat(admin.describeShareGroups(List.of("fresh")).all().get().get("fresh").groupState())
                    .isEqualTo(org.apache.kafka.common.GroupState.EMPTY);
        }
        broker.restart();
        try (Admin admin = broker.admin()) {
            assertThat(offsets(admin, "fresh").get(PARTITION).startOffset()).isEqualTo(1);
        }
        try (KafkaShareConsumer<String, String> consumer = broker.shareConsumer("fresh")) {
            assertThat(broker.acceptEach(consumer, 2)).containsExactly("v1", "v2");
        }
    }

    @Test
    void offsetsAreListedAlteredAndDeletedOnlyWhileTheGroupIsEmpty() throws Exception {
        try (Admin admin = broker.admin()) {
            // A group that does not exist has no offsets and no error, as a Kafka 4.3.1 node answers it.
            assertThat(offsets(admin, "g")).isEmpty();
            KafkaShareConsumer<String, String> first = broker.shareConsumer("g");
            awaitSharePartition(admin, first);
            broker.produce(5);
            assertThat(broker.consume(first, 5,
                    v -> v.equals("v2") || v.equals("v4") ? null : AcknowledgeType.ACCEPT))
                    .containsExactly("v0", "v1", "v2", "v3", "v4");
            SharePartitionOffsetInfo listed = offsets(admin, "g").get(PARTITION);
            // The start offset of the last write, made before it moved past what that write acknowledged (as Kafka's
            // SharePartition writes): 0, 1 or 2 as the polls grouped the acknowledgements; the lag counts the same.
            assertThat(listed.startOffset()).isBetween(0L, 2L);
            assertThat(listed.lag()).contains(2L); // v2 and v4 are still held; v3 is done
            assertThat(listed.leaderEpoch()).as("the epoch the partition's leader wrote the state under").contains(0);
            assertThatThrownBy(() -> admin.alterShareGroupOffsets("g", Map.of(PARTITION, 4L)).all().get())
                    .hasCauseInstanceOf(GroupNotEmptyException.class);
            first.close(); // leaves the group: it is empty now, and v2 and v4 are released

            admin.alterShareGroupOffsets("g", Map.of(PARTITION, 4L)).all().get();
            assertThat(offsets(admin, "g").get(PARTITION).startOffset()).isEqualTo(4);
            try (KafkaShareConsumer<String, String> second = broker.shareConsumer("g")) {
                assertThat(broker.acceptEach(second, 1)).containsExactly("v4");
            }
            admin.deleteShareGroupOffsets("g", Set.of(ShareBroker.TOPIC)).all().get();
            assertThat(offsets(admin, "g")).doesNotContainKey(PARTITION);
            // Nothing left to delete: Kafka's per-topic error and message.
            assertThatThrownBy(() -> admin.deleteShareGroupOffsets("g", Set.of(ShareBroker.TOPIC)).all().get())
                    .hasCauseInstanceOf(org.apache.kafka.common.errors.UnknownTopicOrPartitionException.class)
                    .hasMessageContaining("There is no offset information to delete.");
        }
    }

    /**
     * DeleteShareGroupOffsets forgets the share coordinator's state of every share partition the group has state
     * for, not only those this node has loaded since it started: after a restart the next member starts where
     * {@code share.auto.offset.reset} (latest) says, not where the deleted state left off.
     */
    @Test
    void deletingOffsetsAfterARestartForgetsTheStoredState() throws Exception {
        try (Admin admin = broker.admin()) {
            try (KafkaShareConsumer<String, String> first = broker.shareConsumer("g")) {
                awaitSharePartition(admin, first);
                broker.produce(5);
                broker.consume(first, 5, v -> v.equals("v0") || v.equals("v1") ? AcknowledgeType.ACCEPT : null);
            } // v2..v4 released: the stored state starts at offset 2
        }
        broker.restart();
        try (Admin admin = broker.admin()) {
            admin.deleteShareGroupOffsets("g", Set.of(ShareBroker.TOPIC)).all().get();
            try (KafkaShareConsumer<String, String> second = broker.shareConsumer("g")) {
                // The share coordinator has no start offset for the partition until its leader writes one, at the
                // first acknowledgement (as Kafka's): records are produced until the member's fetch has loaded it.
                ConsumerRecord<String, String> first = null;
                while (first == null) {
                    broker.produce(1);
                    for (ConsumerRecord<String, String> record : second.poll(POLL)) {
                        first = first == null ? record : first;
                        second.acknowledge(record, AcknowledgeType.ACCEPT);
                    }
                }
                second.commitSync();
                assertThat(first.offset()).as("the log end or later, not the deleted state's 2")
                        .isGreaterThanOrEqualTo(5);
                assertThat(offsets(admin, "g").get(PARTITION).startOffset()).isGreaterThanOrEqualTo(5);
            }
        }
    }
}
