package io.minibroker.broker.admin;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.view.DeleteRecordsResponseView;
import io.minibroker.protocol.message.view.DeleteRecordsResponseView.DeleteRecordsPartitionResult;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;
import io.minibroker.purgatory.Purgatory;
import io.minibroker.purgatory.time.Clock;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A DeleteRecords waiting, as Kafka's DelayedDeleteRecords, until the low watermark of every partition it moved
 * (the least log start offset over the leader and its live followers, {@link PartitionLeadership#lowWatermark})
 * reaches the requested offset: the answer then means the records are gone from every live replica. Followers'
 * fetches, which carry their log start offsets, try it again (checkAndComplete on the partition); a partition not
 * reached in time is REQUEST_TIMED_OUT, one this broker stopped leading NOT_LEADER_OR_FOLLOWER.
 */
public final class DelayedDeleteRecords extends DelayedOperation {

    /** One partition's part: the offset its low watermark must reach, and its response entry to fill. */
    record PendingDeletion(PartitionLog log, long requiredOffset, DeleteRecordsPartitionResult result) {
    }

    private final List<PendingDeletion> deletions;
    private final PartitionLeadership leadership;
    private final DeleteRecordsResponseView response;
    private final CompletableFuture<Struct> answer;

    DelayedDeleteRecords(long timeoutMs, List<PendingDeletion> deletions, PartitionLeadership leadership,
                         DeleteRecordsResponseView response, CompletableFuture<Struct> answer) {
        super(timeoutMs);
        this.deletions = deletions;
        this.leadership = leadership;
        this.response = response;
        this.answer = answer;
    }

    /**
     * A purgatory for DeleteRecords, as Kafka names it; {@code purgeInterval} is
     * {@code delete.records.purgatory.purge.interval.requests} (Kafka's default 1: deletions are rare).
     */
    public static Purgatory<DelayedDeleteRecords> newPurgatory(int purgeInterval, Clock clock) {
        return Purgatory.builder("DeleteRecords").clock(clock).purgeInterval(purgeInterval).build();
    }

    @Override
    public boolean tryComplete() {
        for (PendingDeletion deletion : deletions) {
            if (leading(deletion) && !reached(deletion)) {
                return false;
            }
        }
        return forceComplete();
    }

    private boolean leading(PendingDeletion deletion) {
        return leadership.isLeader(deletion.log().topicPartition());
    }

    private boolean reached(PendingDeletion deletion) {
        return leadership.lowWatermark(deletion.log()) >= deletion.requiredOffset();
    }

    @Override
    protected void onComplete() {
        for (PendingDeletion deletion : deletions) {
            if (deletion.log().isDeleted()) { // its topic was deleted while this waited, as a parked produce's
                deletion.result().errorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            } else if (!leading(deletion)) {
                deletion.result().errorCode(Errors.NOT_LEADER_OR_FOLLOWER.code());
            } else if (reached(deletion)) {
                deletion.result().lowWatermark(leadership.lowWatermark(deletion.log()))
                        .errorCode(Errors.NONE.code());
            } else {
                deletion.result().errorCode(Errors.REQUEST_TIMED_OUT.code());
            }
        }
        answer.complete(response.struct());
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory's expiration meter; the partitions not reached were marked in onComplete.
    }
}
