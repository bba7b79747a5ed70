package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replaying one partition of {@code __consumer_offsets} that holds commits, group metadata and a deleted group's
 * tombstones: the last record per key wins, commits and groups each to their own sink.
 */
class OffsetsTopicReplayTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private OffsetsTopic offsetsTopic;

    @BeforeEach
    void open() throws Exception {
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString()));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        offsetsTopic = new OffsetsTopic(topics, 1, Map.of(), OffsetsAppender.SINGLE_NODE, true);
    }

    @AfterEach
    void close() throws Exception {
        topics.close();
    }

    private static GroupMetadataRecord.StoredGroup stable(int generation, String member) {
        return new GroupMetadataRecord.StoredGroup("consumer", generation, "range", member, 1L, List.of(
                new GroupMetadataRecord.StoredMember(member, null, "client", "/h", 60_000, 10_000,
                        new byte[]{1}, new byte[]{(byte) generation})));
    }

    private static Map<TopicPartition, OffsetStore.CommittedOffset> commit(long offset) {
        return Map.of(ORDERS_0, new OffsetStore.CommittedOffset(offset, -1, ""));
    }

    @Test
    void theLastRecordOfEachKeyWinsAndADeletedGroupIsGone() throws Exception {
        offsetsTopic.writeGroup("kept", stable(1, "a")).get();
        offsetsTopic.writeCommits("kept", commit(10)).get();
        offsetsTopic.writeGroup("deleted", stable(3, "b")).get();
        offsetsTopic.writeCommits("deleted", commit(20)).get();
        offsetsTopic.writeGroup("kept", stable(2, "c")).get();
        offsetsTopic.writeCommits("kept", commit(11)).get();
        offsetsTopic.writeGroupDeletion("deleted", List.of(ORDERS_0)).get();

        OffsetStore offsets = new OffsetStore(offsetsTopic);
        Map<String, GroupMetadataRecord.StoredGroup> groups = new HashMap<>();
        offsets.loadPartition(0, (groupId, group) -> {
            if (group == null) {
                groups.remove(groupId);
            } else {
                groups.put(groupId, group);
            }
        });

        assertThat(groups).containsOnlyKeys("kept");
        assertThat(groups.get("kept").generation()).isEqualTo(2);
        assertThat(groups.get("kept").leader()).isEqualTo("c");
        assertThat(groups.get("kept").members()).singleElement()
                .satisfies(member -> assertThat(member.assignment()).containsExactly(2));
        assertThat(offsets.all("kept")).containsExactly(Map.entry(ORDERS_0, new OffsetStore.CommittedOffset(11, -1, "")));
        assertThat(offsets.all("deleted")).isEmpty();
    }
}
