package io.minibroker.broker.group;

import io.minibroker.broker.api.Failures;
import io.minibroker.broker.coordinator.CoordinatorWriteErrors;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Writes groups' metadata records to the offsets topic, next to their commits, as Kafka's storeGroup: when a
 * rebalance completes (before SyncGroup is answered), when a static member takes its place back under a new id,
 * and when the group becomes Empty (DeleteGroups' tombstone is the offsets part's). Each write runs on the
 * coordinator's thread, which holds the group's lock across its checks and the append; in a cluster the wait for
 * the write's replication holds neither the lock nor the thread, and its outcome is handed back under the lock.
 */
final class GroupMetadataWriter {

    private static final Logger LOG = LoggerFactory.getLogger(GroupMetadataWriter.class);

    private final ClassicGroups groups;
    private final OffsetsTopic log;
    private final CoordinatorThread thread;
    /** Stamps each record with the wall-clock time it is written at. */
    private final BrokerClock clock;

    GroupMetadataWriter(ClassicGroups groups, OffsetsTopic log, CoordinatorThread thread, BrokerClock clock) {
        this.groups = groups;
        this.log = log;
        this.thread = thread;
        this.clock = clock;
    }

    /**
     * Stores the group, each member with its assignment in {@code assignments}, if it is still coordinated here and
     * {@code wanted} still holds when the coordinator's thread comes to it (a rebalance, deletion or unload that
     * came first leaves nothing to store). Once the write counts, and if {@code awaited} still holds (else whatever
     * came meanwhile has answered the waiters), {@code onStored} runs; if the write fails, {@code onFailed} with the
     * error Kafka maps the failure to. Both run under the group's lock.
     */
    void store(ClassicGroup group, Supplier<Map<String, byte[]>> assignments, BooleanSupplier wanted,
               BooleanSupplier awaited, Runnable onStored, Consumer<Errors> onFailed) {
        thread.run(() -> {
            CompletableFuture<Long> written;
            synchronized (group) {
                if (!wanted.getAsBoolean() || !groups.isCurrent(group)) {
                    return;
                }
                try {
                    written = log.writeGroup(group.groupId, group.toStored(assignments.get(), clock.wallClockMs()));
                } catch (LogException e) {
                    onFailed.accept(CoordinatorWriteErrors.answerFor(e));
                    return;
                }
            }
            written.whenComplete((logOffset, failure) -> {
                synchronized (group) {
                    if (!awaited.getAsBoolean()) {
                        return;
                    }
                    if (failure == null) {
                        onStored.run();
                    } else {
                        onFailed.accept(CoordinatorWriteErrors.answerFor(failure));
                    }
                }
            });
        });
    }

    /**
     * Writes the metadata of a group left Empty, as Kafka stores it when a rebalance ends without members; a failure
     * is only logged, as in Kafka (the earlier record names members that, loaded elsewhere, expire).
     */
    void storeEmpty(ClassicGroup group, GroupMetadataRecord.StoredGroup empty) {
        thread.run(() -> {
            if (!groups.isCurrent(group)) {
                return; // unloaded or deleted meanwhile
            }
            try {
                log.writeGroup(group.groupId, empty).whenComplete((logOffset, failure) -> {
                    if (failure != null) {
                        LOG.warn("Could not store the Empty group {}: {}", group.groupId,
                                Failures.cause(failure).toString());
                    }
                });
            } catch (LogException e) {
                LOG.warn("Could not store the Empty group {}: {}", group.groupId, e.getMessage());
            }
        });
    }
}
