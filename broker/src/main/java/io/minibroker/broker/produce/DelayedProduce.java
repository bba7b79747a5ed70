package io.minibroker.broker.produce;

import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.schema.Struct;
import io.minibroker.purgatory.DelayedOperation;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An acks=all produce waiting until every partition it wrote has a high watermark past its records. On one node
 * the high watermark is the log end offset ({@link PartitionLog#highWatermark()}), so it completes on its first try; replication will make followers'
 * fetches the event that completes it, through the same purgatory and keys (the partitions).
 */
public final class DelayedProduce extends DelayedOperation {

    /** One partition's part: the offset the high watermark must pass, and its response entry to fill. */
    record PendingAppend(PartitionLog log, long requiredEndOffset, Struct result) {
        boolean replicated() {
            return log.highWatermark() >= requiredEndOffset;
        }
    }

    private final List<PendingAppend> appends;
    private final Struct response;
    private final CompletableFuture<Struct> answer;

    DelayedProduce(long timeoutMs, List<PendingAppend> appends, Struct response, CompletableFuture<Struct> answer) {
        super(timeoutMs);
        this.appends = appends;
        this.response = response;
        this.answer = answer;
    }

    @Override
    public boolean tryComplete() {
        for (PendingAppend append : appends) {
            if (!append.replicated()) {
                return false;
            }
        }
        return forceComplete();
    }

    @Override
    protected void onComplete() {
        for (PendingAppend append : appends) {
            if (!append.replicated()) {
                append.result().set("ErrorCode", Errors.REQUEST_TIMED_OUT.code());
            }
        }
        answer.complete(response);
    }

    @Override
    protected void onExpiration() {
        // Counted by the purgatory's expiration meter; the timed-out partitions were marked in onComplete.
    }
}
