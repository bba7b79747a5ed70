package io.minibroker.broker.produce;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.protocol.schema.Struct;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The partitions of one produce whose appends {@code flush.messages} requires on disk before the produce is
 * acknowledged. The fsyncs run on the broker's disk executor, never on the event loop that appended: the append
 * itself stays there, since it only writes to the page cache and keeps each partition's appends in the order the
 * requests arrived.
 */
final class PendingFlushes {

    private record Unflushed(PartitionLog log, long lastOffset, Struct result) {
    }

    private final List<Unflushed> unflushed = new ArrayList<>();

    /** Notes a partition whose append up to {@code lastOffset} must be fsynced before {@code result} is sent. */
    void add(PartitionLog log, long lastOffset, Struct result) {
        unflushed.add(new Unflushed(log, lastOffset, result));
    }

    /**
     * Completes once every noted append is on disk, at once if there is none. A partition whose fsync fails has
     * its result turned into the storage error.
     */
    CompletableFuture<Void> flushOn(Executor disk) {
        if (unflushed.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return CompletableFuture.runAsync(this::flushAll, disk);
    }

    private void flushAll() {
        for (Unflushed append : unflushed) {
            if (append.log().recoveryPoint() > append.lastOffset()) {
                continue; // an fsync run for another produce to this partition already covered it
            }
            try {
                append.log().flush();
            } catch (LogException e) {
                append.result().set("ErrorCode", e.error().code()).set("ErrorMessage", e.getMessage());
            }
        }
    }
}
