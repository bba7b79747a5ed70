package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;

import java.util.Map;

/** What an OffsetCommit asks for: its group fields, and the offsets of the partitions of known topics. */
record OffsetCommit(String groupId, int generationId, String memberId, String groupInstanceId,
                    Map<TopicPartition, OffsetStore.CommittedOffset> offsets, short version) {
}
