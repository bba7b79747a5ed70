package io.minibroker.broker.share;

import io.minibroker.broker.share.ShareSessionCache.TopicIdPartition;
import io.minibroker.protocol.error.Errors;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * Applies a request's acknowledgements (ShareFetch's or ShareAcknowledge's) partition by partition; the answer
 * comes once every changed partition's state is durable. A share partition not loaded yet starts loading, its
 * outcome handled on the request's event loop.
 */
final class ShareAcknowledgements {

    private ShareAcknowledgements() {
    }

    static CompletableFuture<Map<TopicIdPartition, Errors>> apply(SharePartitionManager manager, ShareLogs logs,
                                                                  String groupId, String memberId,
                                                                  Map<TopicIdPartition, List<Acknowledgement>> acks,
                                                                  Executor eventLoop) {
        Map<TopicIdPartition, CompletableFuture<Errors>> pending = new LinkedHashMap<>();
        acks.forEach((tp, batches) -> {
            ShareLogs.Resolved resolved = logs.resolve(tp.topicId(), tp.partition());
            if (resolved.log() == null) {
                pending.put(tp, CompletableFuture.completedFuture(resolved.error()));
                return;
            }
            SharePartition partition = manager.partition(
                    new SharePartitionKey(groupId, tp.topicId(), tp.partition()), resolved.log(), eventLoop);
            if (partition == null) { // its state is still loading (Kafka's SharePartition answers so while initializing)
                pending.put(tp, CompletableFuture.completedFuture(Errors.LEADER_NOT_AVAILABLE));
                return;
            }
            pending.put(tp, manager.acknowledge(partition, memberId, batches).toCompletableFuture());
        });
        return CompletableFuture.allOf(pending.values().toArray(CompletableFuture[]::new)).thenApply(done -> {
            Map<TopicIdPartition, Errors> errors = new LinkedHashMap<>();
            pending.forEach((tp, future) -> errors.put(tp, future.join()));
            return errors;
        });
    }
}
