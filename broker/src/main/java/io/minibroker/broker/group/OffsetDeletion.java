package io.minibroker.broker.group;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;

import java.util.Map;

/** What OffsetDelete answers: an error for the whole group, else one per partition asked for. */
record OffsetDeletion(Errors error, Map<TopicPartition, Errors> partitions) {
}
