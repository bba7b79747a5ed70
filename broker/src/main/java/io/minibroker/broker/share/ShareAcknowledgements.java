package io.minibroker.broker.share;

import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.protocol.error.Errors;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Applies a request's acknowledgements (ShareFetch's or ShareAcknowledge's) partition by partition; the answer
 * comes once every changed partition's state is durable. Only share partitions in memory are acknowledged: one a
 * fetch has not loaded is not loaded for an acknowledgement. RENEW (4) is taken only from a v2 request that says
 * IsRenewAck, as Kafka 4.3.1's validateAcknowledgementBatches: at v1 it is past the last type, and in a v2 request
 * without the flag it makes the partition's acknowledgements INVALID_REQUEST. Each partition is answered with
 * Kafka's error and message ({@link AcknowledgeResult}).
 */
final class ShareAcknowledgements {

    private ShareAcknowledgements() {
    }

    static CompletableFuture<Map<TopicIdPartition, AcknowledgeResult>> apply(SharePartitionManager manager,
                                                                             ShareLogs logs, String groupId,
                                                                             String memberId,
                                                                             Map<TopicIdPartition,
                                                                                     List<Acknowledgement>> acks,
                                                                             boolean renewAllowed) {
        Map<TopicIdPartition, CompletableFuture<AcknowledgeResult>> pending = new LinkedHashMap<>();
        acks.forEach((tp, batches) -> {
            if (!renewAllowed && batches.stream().anyMatch(Acknowledgement::renewsAny)) {
                pending.put(tp, answered(AcknowledgeResult.unexplained(Errors.INVALID_REQUEST)));
                return;
            }
            ShareLogs.Resolved resolved = logs.resolve(tp.topicId(), tp.partition());
            if (resolved.log() == null) {
                pending.put(tp, answered(notHere(resolved.error())));
                return;
            }
            SharePartitionKey key = new SharePartitionKey(groupId, tp.topicId(), tp.partition());
            SharePartition partition = manager.loaded(key, resolved.log());
            if (partition == null) {
                // As Kafka 4.3.1: a share partition not in memory is UNKNOWN_TOPIC_OR_PARTITION, and no load starts
                // for it; one still loading holds no records yet (Kafka's, initializing, has none in its cache).
                pending.put(tp, answered(manager.isLoading(key) ? SharePartition.NOTHING_IN_FLIGHT
                        : AcknowledgeResult.withDefaultMessage(Errors.UNKNOWN_TOPIC_OR_PARTITION)));
                return;
            }
            pending.put(tp, manager.acknowledge(partition, memberId, batches).toCompletableFuture());
        });
        return CompletableFuture.allOf(pending.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<TopicIdPartition, AcknowledgeResult> results = new LinkedHashMap<>();
            pending.forEach((tp, future) -> results.put(tp, future.join()));
            return results;
        });
    }

    /**
     * The answer for a partition with no log led here. Kafka's KafkaApis answers an unknown topic or partition
     * itself, with no message; a partition it knows but does not lead reaches its SharePartitionManager, whose cache
     * has no share partition of it (a leader change drops them): UNKNOWN_TOPIC_OR_PARTITION with its message, not
     * NOT_LEADER_OR_FOLLOWER.
     */
    private static AcknowledgeResult notHere(Errors error) {
        return error == Errors.NOT_LEADER_OR_FOLLOWER
                ? AcknowledgeResult.withDefaultMessage(Errors.UNKNOWN_TOPIC_OR_PARTITION)
                : AcknowledgeResult.unexplained(error);
    }

    private static CompletableFuture<AcknowledgeResult> answered(AcknowledgeResult result) {
        return CompletableFuture.completedFuture(result);
    }
}
