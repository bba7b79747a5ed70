package io.minibroker.broker.api;

import io.minibroker.broker.log.PartitionLog;
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
 * OffsetForLeaderEpoch: the end offset of a leader epoch, which consumers use to check that their position is
 * still on the log after a leader change. One node has had one leader epoch, 0, since every partition was
 * created, so epoch 0 ends at the log end; a later epoch is unknown (epoch -1, offset -1, as Kafka answers),
 * and a request fenced on a newer current epoch than ours gets UNKNOWN_LEADER_EPOCH.
 */
public final class OffsetForLeaderEpochHandler implements ApiHandler {

    private static final int LEADER_EPOCH = 0;
    private static final int NO_EPOCH_CHECK = -1;

    private final TopicRegistry topics;

    public OffsetForLeaderEpochHandler(TopicRegistry topics) {
        this.topics = topics;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        Struct response = ApiKey.OFFSET_FOR_LEADER_EPOCH.response().newMessage();
        for (Struct topic : request.body().getStructs("Topics")) {
            String name = topic.getString("Topic");
            Struct topicResult = response.addElement("Topics").set("Topic", name);
            Optional<TopicMetadata> metadata = topics.get(name);
            for (Struct partition : topic.getStructs("Partitions")) {
                int index = partition.getInt32("Partition");
                Struct result = topicResult.addElement("Partitions").set("Partition", index)
                        .set("LeaderEpoch", -1).set("EndOffset", -1L);
                Optional<PartitionLog> log = metadata.flatMap(t -> topics.partitionLog(t, index));
                int currentEpoch = partition.getInt32("CurrentLeaderEpoch");
                if (log.isEmpty()) {
                    result.set("ErrorCode", Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                } else if (currentEpoch != NO_EPOCH_CHECK && currentEpoch > LEADER_EPOCH) {
                    result.set("ErrorCode", Errors.UNKNOWN_LEADER_EPOCH.code());
                } else {
                    result.set("ErrorCode", Errors.NONE.code());
                    if (partition.getInt32("LeaderEpoch") == LEADER_EPOCH) {
                        result.set("LeaderEpoch", LEADER_EPOCH).set("EndOffset", log.get().logEndOffset());
                    }
                }
            }
        }
        return CompletableFuture.completedFuture(response);
    }
}
