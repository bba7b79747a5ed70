package io.minibroker.broker.fetch;

import io.minibroker.broker.api.ApiHandler;
import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.log.LeaderEpochCache.EpochEnd;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochRequestView;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochRequestView.OffsetForLeaderPartition;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochRequestView.OffsetForLeaderTopic;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochResponseView;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochResponseView.EpochEndOffset;
import io.minibroker.protocol.message.view.OffsetForLeaderEpochResponseView.OffsetForLeaderTopicResult;
import io.minibroker.protocol.schema.Struct;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * OffsetForLeaderEpoch: where a leader epoch ends in this replica's log (KIP-101, KIP-320), from its leader epoch
 * cache, as Kafka's endOffsetForEpoch: the latest epoch ends at the log end, an older one where the next known epoch
 * starts (answered with the greatest known epoch not above it), an unknown newer one is undefined (-1, -1).
 * Consumers use it to check their position after a leader change, followers to find where their log diverges.
 * The current leader epoch the client names is checked as Kafka does: older than ours is FENCED_LEADER_EPOCH,
 * newer is UNKNOWN_LEADER_EPOCH (-1 skips the check). Only the leader answers, whoever asks (Kafka's
 * fetchOnlyFromLeader is always true here): a follower's cache may still lack the epochs it is about to truncate.
 */
public final class OffsetForLeaderEpochHandler implements ApiHandler {

    private final TopicRegistry topics;
    private final PartitionLeadership leadership;

    public OffsetForLeaderEpochHandler(TopicRegistry topics, PartitionLeadership leadership) {
        this.topics = topics;
        this.leadership = leadership;
    }

    @Override
    public CompletionStage<Struct> handle(RequestContext context, Request request) {
        OffsetForLeaderEpochResponseView response = new OffsetForLeaderEpochResponseView();
        for (OffsetForLeaderTopic topic : new OffsetForLeaderEpochRequestView(request.body()).topics()) {
            String name = topic.topic();
            OffsetForLeaderTopicResult topicResult = response.addTopic().topic(name);
            Optional<TopicMetadata> metadata = topics.get(name);
            for (OffsetForLeaderPartition partition : topic.partitions()) {
                int index = partition.partition();
                EpochEndOffset result = topicResult.addPartition().partition(index).leaderEpoch(-1).endOffset(-1L);
                Optional<PartitionLog> log = metadata.flatMap(t -> topics.partitionLog(t, index));
                Errors error = log.isEmpty() ? topics.partitionNotHere(false, name, null, index)
                        : leadership.checkLeaderEpoch(log.get().topicPartition(),
                        partition.currentLeaderEpoch(), true);
                result.errorCode(error.code());
                if (error == Errors.NONE) {
                    EpochEnd end = log.get().endOffsetForEpoch(partition.leaderEpoch());
                    result.leaderEpoch(end.epoch()).endOffset(end.endOffset());
                }
            }
        }
        return CompletableFuture.completedFuture(response.struct());
    }
}
