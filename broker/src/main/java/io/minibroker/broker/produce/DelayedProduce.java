package io.minibroker.broker.produce;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.message.view.ProduceResponseView.PartitionProduceResponse;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An acks=all produce waiting until every partition it wrote has a high watermark past its records. On one node
 * the high watermark is the log end offset ({@link PartitionLog#highWatermark()}), so it completes on its first
 * try; in a cluster followers' fetches move it, and the leader's checkAndComplete on the partition tries again.
 * One never replicated in time is answered REQUEST_TIMED_OUT, which is what an ISR shrinking under
 * min.insync.replicas leads to (the high watermark then stays put); one replicated while the ISR is too small at its
 * completion, NOT_ENOUGH_REPLICAS_AFTER_APPEND, as Kafka's checkEnoughReplicasReachOffset.
 */
public final class DelayedProduce extends DelayedOperation {

    /** One partition's part: the offset the high watermark must pass, and its response entry to fill. */
    record PendingAppend(PartitionLog log, long requiredEndOffset, int minInsyncReplicas,
                         PartitionProduceResponse result) {
        boolean replicated() {
            return log.highWatermark() >= requiredEndOffset;
        }
    }

    private final List<PendingAppend> appends;
    private final PartitionLeadership leadership;
    private final Struct response;
    private final CompletableFuture<Struct> answer;

    DelayedProduce(long timeoutMs, List<PendingAppend> appends, PartitionLeadership leadership, Struct response,
                   CompletableFuture<Struct> answer) {
        super(timeoutMs);
        this.appends = appends;
        this.leadership = leadership;
        this.response = response;
        this.answer = answer;
    }

    /**
     * Waits as an acks=all produce to one partition does, for what the broker appended itself (the group
     * coordinator's offset commits): the future completes with the partition's answer, NONE once the high watermark
     * passed {@code requiredEndOffset}, else NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT or
     * NOT_ENOUGH_REPLICAS_AFTER_APPEND.
     */
    public static CompletableFuture<Errors> awaitReplication(Purgatory<DelayedProduce> purgatory,
                                                             PartitionLeadership leadership, PartitionLog log,
                                                             long requiredEndOffset, int minInsyncReplicas,
                                                             long timeoutMs) {
        ProduceResponseView response = new ProduceResponseView();
        PartitionProduceResponse result = response.addResponse().addPartitionResponse()
                .index(log.topicPartition().partition()).errorCode(Errors.NONE.code());
        CompletableFuture<Struct> answer = new CompletableFuture<>();
        purgatory.tryCompleteElseWatch(new DelayedProduce(timeoutMs,
                List.of(new PendingAppend(log, requiredEndOffset, minInsyncReplicas, result)), leadership,
                response.struct(), answer), List.of(log.topicPartition()));
        return answer.thenApply(done -> Errors.forCode(result.errorCode()));
    }

    /**
     * Complete once every partition is replicated, or at once when this broker stopped leading one of them (its
     * topic deleted, too).
     */
    @Override
    public boolean tryComplete() {
        for (PendingAppend append : appends) {
            if (!append.replicated() && leadership.isLeader(append.log().topicPartition())) {
                return false;
            }
        }
        return forceComplete();
    }

    @Override
    protected void onComplete() {
        for (PendingAppend append : appends) {
            if (append.log().isDeleted()) {
                append.result().errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            } else if (!leadership.isLeader(append.log().topicPartition())) {
                append.result().errorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
            } else if (!append.replicated()) {
                append.result().errorCode(Errors.REQUEST_TIMED_OUT.code());
            } else if (leadership.isUnderMinIsr(append.log().topicPartition(), append.minInsyncReplicas())) {
                append.result().errorCode(Errors.NOT_ENOUGH_REPLICAS_AFTER_APPEND.code());
            }
        }
        answer.complete(response);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory's expiration meter; the timed-out partitions were marked in onComplete.
    }
}
