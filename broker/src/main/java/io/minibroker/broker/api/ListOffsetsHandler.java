package io.minibroker.broker.api;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TimestampAndOffset;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.schema.Struct;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * ListOffsets: the earliest (-2) and latest (-1) offsets, the record with the largest timestamp (-3, v7+), the
 * earliest local offset (-4, v8+: the log start, as nothing is tiered), or the first record at or after a
 * timestamp. With nothing that late, the answer is offset -1 and timestamp -1, as Kafka gives it.
 */
public final class ListOffsetsHandler implements ApiHandler {

    private static final long LATEST = -1;
    private static final long EARLIEST = -2;
    private static final long MAX_TIMESTAMP = -3;
    private static final long EARLIEST_LOCAL = -4;
    private static final long LATEST_TIERED = -5;
    private static final int LEADER_EPOCH = 0;

    private final TopicRegistry topics;

    public ListOffsetsHandler(TopicRegistry topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.LIST_OFFSETS.response().newMessage();
        for (Struct topic : request.body().getStructs("Topics")) {
            String name = topic.getString("Name");
            Struct topicResponse = response.addElement("Topics").set("Name", name);
            Optional<TopicMetadata> metadata = topics.get(name);
            for (Struct partition : topic.getStructs("Partitions")) {
                int index = partition.getInt32("PartitionIndex");
                Struct result = topicResponse.addElement("Partitions").set("PartitionIndex", index)
                        .set("Timestamp", -1L).set("Offset", -1L).set("LeaderEpoch", LEADER_EPOCH);
                Optional<PartitionLog> log = metadata.flatMap(t -> topics.partitionLog(t, index));
                if (log.isEmpty()) {
                    result.set("ErrorCode", Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                    continue;
                }
                try {
                    lookUp(log.get(), partition.getInt64("Timestamp"), result);
                } catch (LogException e) {
                    result.set("ErrorCode", e.error().code());
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }

    private static void lookUp(PartitionLog log, long timestamp, Struct result) {
        if (timestamp == LATEST) {
            result.set("Offset", log.highWatermark());
        } else if (timestamp == EARLIEST || timestamp == EARLIEST_LOCAL) {
            result.set("Offset", log.logStartOffset());
        } else if (timestamp == LATEST_TIERED) {
            result.set("Offset", -1L); // nothing is tiered
        } else {
            Optional<TimestampAndOffset> found = timestamp == MAX_TIMESTAMP
                    ? log.maxTimestampAndOffset() : log.offsetForTimestamp(timestamp);
            found.ifPresent(f -> result.set("Timestamp", f.timestamp()).set("Offset", f.offset()));
        }
    }
}
