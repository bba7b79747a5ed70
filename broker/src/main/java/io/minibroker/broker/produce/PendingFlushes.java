package io.minibroker.broker.produce;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.message.view.ProduceResponseView.PartitionProduceResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The partitions of one produce whose appends must reach the disk before the produce is acknowledged: those
 * {@code flush.messages} requires fsynced, and those whose append started a leader epoch that
 * {@code leader-epoch-checkpoint} does not have yet (Kafka writes it before its append returns, so an acknowledged
 * record's epoch is always in the checkpoint). The writes run on the broker's disk executor, never on the event
 * loop that appended: the append itself stays there, since it only writes to the page cache and keeps each
 * partition's appends in the order the requests arrived.
 */
final class PendingFlushes {

    /** An append to make durable: its segments up to {@code lastOffset}, or (when -1) the epoch checkpoint only. */
    private record Unflushed(PartitionLog log, long lastOffset, PartitionProduceResponse result) {
        boolean epochCheckpointOnly() {
            return lastOffset < 0;
        }
    }

    /** Made at the first note: most produces have nothing to fsync and allocate no list. */
    private List<Unflushed> unflushed = List.of();

    /** Notes a partition whose append up to {@code lastOffset} must be fsynced before {@code result} is sent. */
    void add(PartitionLog log, long lastOffset, PartitionProduceResponse result) {
        note(new Unflushed(log, lastOffset, result));
    }

    /** Notes a partition whose leader epoch checkpoint must be written before {@code result} is sent. */
    void addLeaderEpochCheckpoint(PartitionLog log, PartitionProduceResponse result) {
        note(new Unflushed(log, -1, result));
    }

    private void note(Unflushed append) {
        if (unflushed.isEmpty()) {
            unflushed = new ArrayList<>(1);
        }
        unflushed.add(append);
    }

    /** Whether nothing was noted: the produce may be answered without waiting for the disk. */
    boolean isEmpty() {
        return unflushed.isEmpty();
    }

    /**
     * Completes once every noted append is on disk. A partition whose fsync fails has its result turned into the
     * storage error.
     */
    CompletableFuture<Void> flushOn(Executor disk) {
        return CompletableFuture.runAsync(this::flushAll, disk);
    }

    private void flushAll() {
        for (Unflushed append : unflushed) {
            try {
                if (append.epochCheckpointOnly()) {
                    append.log().writeLeaderEpochCheckpoint(); // nothing to do if another produce's write had it
                } else if (append.log().recoveryPoint() <= append.lastOffset()) {
                    append.log().flush(); // the epoch checkpoint first, then the segments
                }
            } catch (LogException e) {
                append.result().errorCode(e.error().code()).errorMessage(e.getMessage());
            }
        }
    }
}
