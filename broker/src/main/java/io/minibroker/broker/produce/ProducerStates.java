package io.minibroker.broker.produce;

import io.minibroker.broker.log.AppendResult;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.ProducerSnapshot;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatches;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The idempotent-producer state of every partition, so that it survives a restart: a partition's table is
 * rebuilt from its log the first time a producer writes to it, by reading the producer fields of every batch. In
 * a cluster that is what carries it through a failover: the new leader's log holds every batch it replicated.
 * Tables are keyed by the log object, so a deleted and recreated topic starts clean and a deleted log's table
 * is collected with it.
 *
 * <p>The rebuild starts from the log's newest producer snapshot ({@link PartitionLog#producerSnapshotBase}, written
 * at each roll and clean close, as Kafka's) and reads only the batches after it, on the thread of the first write;
 * of the producers they name it keeps those the log's own state still has (not those expired since).
 */
public final class ProducerStates {

    private static final int READ_CHUNK_BYTES = 1 << 20;
    private static final UnpooledByteBufAllocator HEAP = new UnpooledByteBufAllocator(false, true);

    /** Builds one partition's table at most once; only writers to that partition wait for the rebuild. */
    private static final class Holder {
        private ProducerStateTable table;

        synchronized ProducerStateTable get(PartitionLog log) {
            if (table == null) {
                table = rebuild(log);
            }
            return table;
        }
    }

    private final Map<PartitionLog, Holder> holders = Collections.synchronizedMap(new WeakHashMap<>());

    /**
     * A producer as DescribeProducers lists it; {@code coordinatorEpoch} is its last marker's (-1 before any). The
     * open transaction's start is the log's ({@link PartitionLog#ongoingTransactions()}).
     */
    public record ActiveProducer(long producerId, short epoch, int lastSequence, long lastTimestamp,
                                 int coordinatorEpoch) {
    }

    /**
     * The producers a partition's log has batches of, as its idempotent-producer table knows them (built from the
     * log first if no producer has written since the start).
     */
    public List<ActiveProducer> activeProducers(PartitionLog log) {
        ProducerStateTable table = table(log);
        synchronized (table) {
            return table.activeProducers();
        }
    }

    /**
     * The producers a log holds batches of, read from the log itself: for a follower, which keeps no table while
     * it replicates (a table it kept would fall behind its log).
     */
    public static List<ActiveProducer> activeProducersInLog(PartitionLog log) {
        List<ActiveProducer> active = new ArrayList<>();
        for (ProducerSnapshot.Entry producer : log.producers()) {
            active.add(new ActiveProducer(producer.producerId(), producer.epoch(), producer.lastSequence(),
                    producer.timestamp(), producer.coordinatorEpoch()));
        }
        return active;
    }

    /**
     * Appends a transaction marker's control batch for {@code producerId} as the partition's leader, checked against
     * and recorded in the producer's state under the same lock a produce takes (so a batch of the epoch the marker
     * fences cannot slip in between). Page cache only.
     *
     * @param transactionVersion the marker's, as its coordinator sent it (WriteTxnMarkers v2's TransactionVersion;
     *     0 for an older request): from 2 its epoch must be above the producer's (KIP-1228)
     * @throws LogException INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED if the marker is refused, or
     *     the log's error
     */
    public AppendResult appendMarker(PartitionLog log, long producerId, short producerEpoch, int coordinatorEpoch,
                                     short transactionVersion, ByteBuf controlBatch, int leaderEpoch) {
        ProducerStateTable table = table(log);
        synchronized (table) {
            Errors refused = table.checkMarker(producerId, producerEpoch, coordinatorEpoch, transactionVersion,
                    log.ongoingTransactions().containsKey(producerId));
            if (refused != Errors.NONE) {
                throw new LogException(refused, "marker of producer " + producerId + " at epoch " + producerEpoch
                        + " (coordinator epoch " + coordinatorEpoch + ") refused in " + log.topicPartition());
            }
            AppendResult appended = log.appendControlUnflushed(controlBatch, leaderEpoch);
            table.recordMarker(producerId, producerEpoch, coordinatorEpoch, appended.maxTimestamp());
            return appended;
        }
    }

    /**
     * Makes the log's table, if it has one, keep only the producers the log still has: after the log expired some
     * ({@link PartitionLog#removeExpiredProducers}), so that the leader's checks and the log's state agree on who is
     * known. A table built later keeps only those too, whatever the older snapshot and batches it reads name; one
     * being built is waited for, since its rebuild may have read the log's producers before they expired.
     */
    public void retainLogsProducers(PartitionLog log) {
        Holder holder = holders.get(log); // none if no write or read asked for its table: nothing to follow
        if (holder != null) {
            ProducerStateTable table = holder.get(log);
            synchronized (table) { // the table's lock, then the log's, as a produce takes them
                table.retainOnly(producerIds(log));
            }
        }
    }

    private static Set<Long> producerIds(PartitionLog log) {
        Set<Long> ids = new HashSet<>();
        log.producers().forEach(producer -> ids.add(producer.producerId()));
        return ids;
    }

    ProducerStateTable table(PartitionLog log) {
        return holders.computeIfAbsent(log, ignored -> new Holder()).get(log);
    }

    /**
     * Drops a partition's table, to be rebuilt from the log at its next write: for a broker that becomes the
     * partition's leader, whose log grew by fetching, past what a table it built as an earlier leader knows.
     */
    public void forget(PartitionLog log) {
        holders.remove(log);
    }

    private static ProducerStateTable rebuild(PartitionLog log) {
        ProducerStateTable table = new ProducerStateTable();
        ProducerSnapshot base = log.producerSnapshotBase();
        base.entries().forEach(table::seed);
        long offset = Math.max(base.offset(), log.logStartOffset());
        long end = log.logEndOffset();
        while (offset < end) {
            LogReadResult read = log.read(offset, READ_CHUNK_BYTES, true, end);
            if (read.isEmpty()) {
                break;
            }
            ByteBuf chunk = read.readInto(HEAP);
            long next = offset;
            for (RecordBatches batches = RecordBatches.of(chunk); batches.hasNext(); ) {
                RecordBatch batch = batches.next();
                if (batch.producerId() >= 0) {
                    table.record(batch, batch.baseOffset());
                }
                next = batch.lastOffset() + 1;
            }
            if (next == offset) {
                break; // no whole batch in the chunk: nothing more can be read
            }
            offset = next;
        }
        // The snapshot and the batches after it may name producers the log has expired since (at the start, or by a
        // round): the log's producers are the ones that exist, as a single state (Kafka's) would have them.
        table.retainOnly(producerIds(log));
        return table;
    }
}
