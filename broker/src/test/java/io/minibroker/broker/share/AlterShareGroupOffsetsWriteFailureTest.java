package io.minibroker.broker.share;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.ListGroupsOptions;
import org.apache.kafka.common.GroupType;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;
import org.apache.kafka.common.errors.UnknownServerException;
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
 * AlterShareGroupOffsets on a group the coordinator does not know makes an empty share group, as Kafka does; when
 * the write of that group's record fails (here a record over {@code message.max.bytes}, its group id being long),
 * the request fails and no group is left behind, as Kafka's failed coordinator write leaves none.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AlterShareGroupOffsetsWriteFailureTest {

    private static final TopicPartition PARTITION = new TopicPartition(ShareBroker.TOPIC, 0);
    private static final String LONG_GROUP = "g".repeat(1500);

    @RegisterExtension
    final ShareBroker broker = ShareBroker.eachTest(Map.of("message.max.bytes", "1000"));

    @Test
    void aFailedAlterOfAnUnknownGroupLeavesNoGroup() throws Exception {
        try (Admin admin = broker.admin()) {
            assertThatThrownBy(() -> admin.alterShareGroupOffsets(LONG_GROUP, Map.of(PARTITION, 0L)).all().get())
                    .hasCauseInstanceOf(UnknownServerException.class);
            assertThat(admin.listGroups(new ListGroupsOptions().withTypes(Set.of(GroupType.SHARE))).all().get())
                    .extracting(GroupListing::groupId).isEmpty();
            assertThatThrownBy(() -> admin.describeShareGroups(List.of(LONG_GROUP)).all().get())
                    .hasCauseInstanceOf(GroupIdNotFoundException.class);
        }
    }
}
