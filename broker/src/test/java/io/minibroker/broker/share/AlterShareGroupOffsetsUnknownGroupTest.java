package io.minibroker.broker.share;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.clients.admin.ShareGroupDescription;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.GroupState;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * kafka-clients 4.4's Admin.alterShareGroupOffsets on a group the coordinator does not know: as Kafka 4.3's
 * GroupMetadataManager.alterShareGroupOffsets, it makes an empty share group (kept through a restart by its
 * ShareGroupStatePartitionMetadata record) whose consumers then start at the offset set; an id a consumer group
 * holds is GROUP_ID_NOT_FOUND.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AlterShareGroupOffsetsUnknownGroupTest {

    private static final TopicPartition PARTITION = new TopicPartition(ShareBroker.TOPIC, 0);

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest();

    private static ShareGroupDescription describe(Admin admin, String group) throws Exception {
        return admin.describeShareGroups(List.of(group)).all().get().get(group);
    }

    private static List<String> shareGroups(Admin admin) throws Exception {
        return admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all().get().stream()
                .map(GroupListing::groupId).toList();
    }

    @Test
    void alteringTheOffsetsOfAnUnknownGroupMakesAnEmptyShareGroup() throws Exception {
        broker.produce(5);
        try (Admin admin = broker.admin()) {
            assertThatThrownBy(() -> describe(admin, "fresh")).hasCauseInstanceOf(GroupIdNotFoundException.class);
            admin.alterShareGroupOffsets("fresh", Map.of(PARTITION, 3L)).all().get();
            assertThat(describe(admin, "fresh").groupState()).isEqualTo(GroupState.EMPTY);
            assertThat(describe(admin, "fresh").members()).isEmpty();
            assertThat(shareGroups(admin)).containsExactly("fresh");
            assertThat(ShareBroker.startOffset(admin, "fresh")).isEqualTo(3);
        }

        broker.restart(); // the group is in __consumer_offsets: its record 15 brings it back
        try (Admin admin = broker.admin()) {
            assertThat(shareGroups(admin)).containsExactly("fresh");
            assertThat(describe(admin, "fresh").groupState()).isEqualTo(GroupState.EMPTY);
            assertThat(ShareBroker.startOffset(admin, "fresh")).isEqualTo(3);
        }
        KafkaShareConsumer<String, String> consumer = broker.shareConsumer("fresh");
        List<String> received = broker.acceptEach(consumer, 2);
        broker.close(consumer); // it leaves the group, which can then be deleted
        assertThat(received).containsExactly("v3", "v4");

        try (Admin admin = broker.admin()) {
            admin.deleteShareGroups(List.of("fresh")).all().get();
            assertThat(shareGroups(admin)).isEmpty();
        }
        broker.restart(); // its tombstones are in the log too
        try (Admin admin = broker.admin()) {
            assertThat(shareGroups(admin)).isEmpty();
        }
    }

    @Test
    void aConsumerGroupsIdIsNotAShareGroup() throws Exception {
        try (Admin admin = broker.admin()) {
            admin.alterConsumerGroupOffsets("classic", Map.of(PARTITION, new OffsetAndMetadata(0))).all().get();
            assertThatThrownBy(() -> admin.alterShareGroupOffsets("classic", Map.of(PARTITION, 0L)).all().get())
                    .hasCauseInstanceOf(GroupIdNotFoundException.class);
            assertThat(shareGroups(admin)).isEmpty();
        }
    }
}
