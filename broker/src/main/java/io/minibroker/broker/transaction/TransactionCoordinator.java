package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static java.util.concurrent.CompletableFuture.completedFuture;

/**
 * The transaction coordinator, Kafka's TransactionCoordinator with its TransactionStateManager: each transactional
 * id's state, kept in {@code __transaction_state} ({@link TransactionStateLog}) and changed only once the new state
 * is written there. Every request and round runs on the coordinator's own thread, so no two changes of an id
 * interleave and no event loop waits; a change whose write is under way is "pending", and requests meeting it get
 * CONCURRENT_TRANSACTIONS, as in Kafka.
 *
 * <p>EndTxn writes PrepareCommit/PrepareAbort; once that write counts the markers go to the partitions
 * ({@link TransactionMarkers}), and once every partition has its marker CompleteCommit/CompleteAbort is written.
 * Until then the id answers CONCURRENT_TRANSACTIONS. EndTxn is answered once the markers are on their way, never
 * before the prepare counts (Kafka's moment); where the writes and the markers' appends count at once all of it
 * happens in the EndTxn's own task ({@link CoordinatorOutcomes}). Under transaction version 2 (KIP-890; the
 * client says so with EndTxn v5+) the producer epoch is bumped at each EndTxn and the markers carry the new epoch.
 *
 * <p>The id's partition of {@code __transaction_state} is Kafka's {@link #partitionFor}; a node coordinates the ids of
 * the partitions it leads and has loaded ({@link TransactionPartitions}: COORDINATOR_LOAD_IN_PROGRESS while loading,
 * NOT_COORDINATOR otherwise). After a load, transactions found prepared get their markers again; ongoing ones past
 * their timeout are aborted, and ids idle past {@code transactional.id.expiration.ms} removed, by the rounds of
 * {@link TransactionExpiry}. Each state is written by {@link TransactionStateWriter}.
 */
public final class TransactionCoordinator implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionCoordinator.class);

    /** InitProducerId's and EndTxn v5's answer: an error, or the producer id and epoch. */
    public record ProducerIdAndEpoch(Errors error, long producerId, short producerEpoch) {
        static ProducerIdAndEpoch failed(Errors error) {
            return new ProducerIdAndEpoch(error, -1, TransactionMetadata.NO_EPOCH);
        }
    }

    /** What ListTransactions asks: empty filters match all; a negative duration does not filter. */
    public record ListFilter(Set<TransactionState> states, Set<Long> producerIds, long minDurationMs,
                             com.google.re2j.Pattern transactionalIdPattern) {
    }

    /** DescribeTransactions' answer for one id: an error, or its state. */
    public record Description(Errors error, TransactionMetadata metadata) {
    }

    /** ListTransactions' answer: an error (a partition still loading) and the states found. */
    public record Listing(Errors error, List<TransactionMetadata> transactions) {
    }

    /** An id's state and whether a change of it is being written. */
    static final class Entry {
        TransactionMetadata metadata;
        boolean pending;

        Entry(TransactionMetadata metadata) {
            this.metadata = metadata;
        }
    }

    private final TransactionStateLog stateLog;
    /** Each id's state record to {@code __transaction_state}. */
    private final TransactionStateWriter writer;
    private final TransactionMarkers markers;
    private final LongSupplier producerIds;
    private final TransactionConfig config;
    private final BrokerClock clock;
    /** The coordinator's thread: every field below is touched only there. */
    private final ScheduledExecutorService thread;
    private final Map<String, Entry> transactions = new HashMap<>();
    /** The partitions of {@code __transaction_state} this node leads and has loaded. */
    private final TransactionPartitions partitions;

    /** @param backoffs the broker's, where the markers' retries wait (its owner closes it, before this) */
    public TransactionCoordinator(TransactionStateLog stateLog, TransactionMarkerAppender appender,
                                  LongSupplier producerIds, TransactionConfig config, BrokerClock clock,
                                  BackoffTimer backoffs) {
        this.stateLog = stateLog;
        this.partitions = new TransactionPartitions(stateLog);
        this.producerIds = producerIds;
        this.config = config;
        this.clock = clock;
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> new Thread(task, "transaction-coordinator"));
        this.markers = new TransactionMarkers(appender, thread, backoffs);
        this.writer = new TransactionStateWriter(stateLog, partitions, config, thread);
        TransactionExpiry expiry = new TransactionExpiry(transactions, writer, this::prepareEnd,
                config, producerIds, clock);
        clock.scheduleWithFixedDelay(thread, "aborting timed out transactions", config.abortTimedOutIntervalMs(),
                expiry::abortTimedOutTransactions);
        clock.scheduleWithFixedDelay(thread, "removing expired transactional ids", config.removeExpiredIntervalMs(),
                expiry::removeExpiredTransactionalIds);
    }

    /** Kafka's partitionFor of a transactional id ({@link InternalTopics#partitionFor}). */
    public static int partitionFor(String transactionalId, int partitions) {
        return InternalTopics.partitionFor(transactionalId, partitions);
    }

    /**
     * Loads every partition of {@code __transaction_state} (a single node's start; before any request, which
     * therefore waits behind it on the coordinator's thread): the ids of a partition answer
     * COORDINATOR_LOAD_IN_PROGRESS until its replay ends; prepared transactions then get their markers.
     */
    public void loadAll() {
        thread.execute(() -> {
            int count = partitions.loadingAll();
            for (int partition = 0; partition < count; partition++) {
                int loaded = partition;
                thread.execute(() -> replay(loaded));
            }
        });
    }

    /**
     * A cluster's node now leads a partition of {@code __transaction_state} at this leader epoch (Kafka's
     * onElection): whatever an earlier term left is dropped, and the partition is replayed on the coordinator's
     * thread; its ids answer COORDINATOR_LOAD_IN_PROGRESS until then, and its markers carry this epoch.
     */
    public void onLeading(int partition, int leaderEpoch) {
        thread.execute(() -> {
            unload(partition);
            partitions.loading(partition, leaderEpoch);
            thread.execute(() -> {
                if (partitions.stillLoading(partition, leaderEpoch)) {
                    replay(partition); // unless resigned, or led again, meanwhile
                }
            });
        });
    }

    /** No longer leading the partition (Kafka's onResignation): its ids are NOT_COORDINATOR here from now. */
    public void onResigned(int partition) {
        thread.execute(() -> unload(partition));
    }

    private void unload(int partition) {
        partitions.unload(partition);
        transactions.keySet().removeIf(id -> partitions.holds(partition, id));
    }

    private void replay(int partition) {
        Map<String, TransactionMetadata> found = new HashMap<>();
        try {
            stateLog.replay(partition, (id, metadata) -> {
                if (metadata == null) {
                    found.remove(id);
                } else {
                    found.put(id, metadata);
                }
            });
        } finally {
            partitions.loadEnded(partition);
        }
        partitions.loaded(partition);
        found.forEach((id, metadata) -> transactions.put(id, new Entry(metadata)));
        LOG.info("Loaded {} transactional ids from partition {} of {}", found.size(), partition,
                TransactionStateTopic.NAME);
        for (TransactionMetadata metadata : found.values()) {
            if (metadata.state().isPrepare()) {
                Entry entry = transactions.get(metadata.transactionalId());
                entry.pending = true;
                sendMarkers(entry, metadata);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- InitProducerId

    /**
     * InitProducerId with a transactional id. {@code expectedProducerId}/{@code expectedEpoch} are KIP-360's (-1 when
     * the client names none).
     */
    public CompletableFuture<ProducerIdAndEpoch> initProducerId(String transactionalId, int timeoutMs,
                                                                long expectedProducerId, short expectedEpoch) {
        return onThread(() -> {
            if (transactionalId.isEmpty()) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_REQUEST));
            }
            if (timeoutMs <= 0 || timeoutMs > config.maxTimeoutMs()) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_TRANSACTION_TIMEOUT));
            }
            Errors coordinator = partitions.error(transactionalId);
            if (coordinator != Errors.NONE) {
                return completedFuture(ProducerIdAndEpoch.failed(coordinator));
            }
            long now = clock.wallClockMs();
            Entry entry = transactions.get(transactionalId);
            if (entry == null) {
                TransactionMetadata created = new TransactionMetadata(transactionalId, producerIds.getAsLong(),
                        TransactionMetadata.NO_PRODUCER_ID, TransactionMetadata.NO_PRODUCER_ID,
                        TransactionMetadata.NO_EPOCH, TransactionMetadata.NO_EPOCH, timeoutMs,
                        TransactionState.EMPTY, Set.of(), -1, now, (short) 0);
                entry = new Entry(created);
                transactions.put(transactionalId, entry);
            }
            return initExisting(entry, timeoutMs, expectedProducerId, expectedEpoch, now);
        });
    }

    private CompletableFuture<ProducerIdAndEpoch> initExisting(Entry entry, int timeoutMs, long expectedProducerId,
                                                               short expectedEpoch, long now) {
        TransactionMetadata current = entry.metadata;
        boolean expected = expectedProducerId != TransactionMetadata.NO_PRODUCER_ID;
        if (entry.pending) {
            return completedFuture(ProducerIdAndEpoch.failed(Errors.CONCURRENT_TRANSACTIONS));
        }
        if (expected && !isValidProducerId(current, expectedProducerId, expectedEpoch)) {
            return completedFuture(ProducerIdAndEpoch.failed(Errors.PRODUCER_FENCED));
        }
        switch (current.state()) {
            case PREPARE_COMMIT, PREPARE_ABORT, PREPARE_EPOCH_FENCE, DEAD -> {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
            case ONGOING -> {
                // Kafka fences the producer of the open transaction and aborts it; this client retries meanwhile,
                // and its retry bumps the epoch once more.
                short fenced = (short) (current.producerEpoch() + 1);
                TransactionMetadata aborting = current.transitionTo(
                        TransactionState.PREPARE_ABORT, current.producerId(), fenced,
                        current.lastEpochWhenFenced(config.transactionVersion()),
                        current.partitions(), current.startTimestamp(), now);
                return prepareEnd(entry, aborting).thenApply(error -> ProducerIdAndEpoch.failed(
                        error == Errors.NONE ? Errors.CONCURRENT_TRANSACTIONS : error));
            }
            default -> {
                TransactionMetadata next;
                if (TransactionMetadata.isEpochExhausted(current.producerEpoch())
                        && (!expected || expectedEpoch == current.producerEpoch())) {
                    // The last epoch is kept when the producer named it, so that its retry is recognised.
                    next = current.transitionTo(TransactionState.EMPTY, producerIds.getAsLong(), (short) 0,
                            expected ? current.producerEpoch() : TransactionMetadata.NO_EPOCH, Set.of(), -1, now);
                } else {
                    short bumped = (short) (current.producerEpoch() + 1);
                    short newEpoch;
                    short newLast;
                    if (!expected) {
                        newEpoch = bumped;
                        newLast = TransactionMetadata.NO_EPOCH;
                    } else if (current.producerEpoch() == TransactionMetadata.NO_EPOCH
                            || expectedEpoch == current.producerEpoch()) {
                        newEpoch = bumped;
                        newLast = current.producerEpoch();
                    } else if (expectedEpoch == current.lastProducerEpoch()) {
                        newEpoch = current.producerEpoch(); // a retried bump: the same answer again
                        newLast = current.lastProducerEpoch();
                    } else {
                        return completedFuture(ProducerIdAndEpoch.failed(Errors.PRODUCER_FENCED));
                    }
                    next = current.transitionTo(TransactionState.EMPTY, current.producerId(), newEpoch, newLast,
                            Set.of(), -1, now);
                }
                TransactionMetadata written = next.withTimeout(timeoutMs);
                return write(entry, written).thenApply(error -> error == Errors.NONE
                        ? new ProducerIdAndEpoch(Errors.NONE, written.producerId(), written.producerEpoch())
                        : ProducerIdAndEpoch.failed(error));
            }
        }
    }

    /**
     * Kafka's isValidProducerId: a named producer is this id's, or its previous one after a rotation it may not have
     * heard of; an id whose epoch is still unset takes any.
     */
    private static boolean isValidProducerId(TransactionMetadata metadata, long producerId, short epoch) {
        return metadata.producerEpoch() == TransactionMetadata.NO_EPOCH
                || producerId == metadata.producerId()
                || (producerId == metadata.previousProducerId() && TransactionMetadata.isEpochExhausted(epoch));
    }

    // ------------------------------------------------------------------------------------------- AddPartitionsToTxn

    /**
     * Adds partitions to the producer's transaction (AddPartitionsToTxn, AddOffsetsToTxn, and a TV2 produce's
     * implicit add); {@code clientTransactionVersion} 2 when the add comes from a TV2 produce.
     */
    public CompletableFuture<Errors> addPartitions(String transactionalId, long producerId, short producerEpoch,
                                                   Collection<TopicPartition> partitions,
                                                   short clientTransactionVersion) {
        return onThread(() -> {
            Errors located = locate(transactionalId);
            if (located != Errors.NONE) {
                return completedFuture(located);
            }
            Entry entry = transactions.get(transactionalId);
            // Kafka's order: a pending write first, for under TV2 it may be moving the producer to the new id this
            // request already names.
            if (entry.pending) {
                return completedFuture(Errors.CONCURRENT_TRANSACTIONS);
            }
            Errors checked = checkProducer(entry, producerId, producerEpoch);
            if (checked != Errors.NONE) {
                return completedFuture(checked);
            }
            TransactionMetadata current = entry.metadata;
            if (current.state().isPrepare()) {
                return completedFuture(Errors.CONCURRENT_TRANSACTIONS);
            }
            if (current.state() == TransactionState.ONGOING && current.partitions().containsAll(partitions)) {
                return completedFuture(Errors.NONE);
            }
            if (current.state() != TransactionState.ONGOING && !current.state().isComplete()
                    && current.state() != TransactionState.EMPTY) {
                return completedFuture(Errors.INVALID_TXN_STATE);
            }
            long now = clock.wallClockMs();
            Set<TopicPartition> all = new HashSet<>(current.partitions());
            all.addAll(partitions);
            long start = current.state() == TransactionState.ONGOING ? current.startTimestamp() : now;
            TransactionMetadata next = current.transitionTo(TransactionState.ONGOING, current.producerId(),
                    current.producerEpoch(), current.lastProducerEpoch(), all, start, now);
            if (clientTransactionVersion > next.clientTransactionVersion()) {
                next = next.withClientTransactionVersion(clientTransactionVersion);
            }
            return write(entry, next);
        });
    }

    /**
     * AddPartitionsToTxn's verify-only form (v4+, a partition leader asking a TV1 transaction): NONE for each partition
     * in the transaction, else INVALID_TXN_STATE (TRANSACTION_ABORTABLE from v5, KIP-890).
     */
    public CompletableFuture<Map<TopicPartition, Errors>> verifyPartitions(String transactionalId, long producerId,
                                                                           short producerEpoch,
                                                                           Collection<TopicPartition> partitions,
                                                                           Errors notInTransaction) {
        return onThread(() -> {
            Map<TopicPartition, Errors> result = new HashMap<>();
            Errors checked = locate(transactionalId);
            Entry entry = transactions.get(transactionalId);
            if (checked == Errors.NONE) {
                checked = checkProducer(entry, producerId, producerEpoch);
            }
            // A pending write is not waited for, as in Kafka: the partitions answered are those whose add counted.
            if (checked == Errors.NONE && entry.metadata.state().isPrepare()) {
                checked = Errors.CONCURRENT_TRANSACTIONS;
            }
            for (TopicPartition partition : partitions) {
                Errors error = checked;
                if (error == Errors.NONE && (entry.metadata.state() != TransactionState.ONGOING
                        || !entry.metadata.partitions().contains(partition))) {
                    error = notInTransaction;
                }
                result.put(partition, error);
            }
            return completedFuture(result);
        });
    }

    /** Whether this coordinator holds the id: an error as Kafka's, else NONE and the id has an entry. */
    private Errors locate(String transactionalId) {
        if (transactionalId.isEmpty()) {
            return Errors.INVALID_REQUEST;
        }
        Errors coordinator = partitions.error(transactionalId);
        if (coordinator != Errors.NONE) {
            return coordinator;
        }
        return transactions.containsKey(transactionalId) ? Errors.NONE : Errors.INVALID_PRODUCER_ID_MAPPING;
    }

    /** Whether the request names the id's current producer id and epoch, as Kafka checks them. */
    private static Errors checkProducer(Entry entry, long producerId, short producerEpoch) {
        if (entry.metadata.producerId() != producerId) {
            return Errors.INVALID_PRODUCER_ID_MAPPING;
        }
        if (entry.metadata.producerEpoch() != producerEpoch) {
            return Errors.PRODUCER_FENCED;
        }
        return Errors.NONE;
    }

    // ------------------------------------------------------------------------------------------------------- EndTxn

    /**
     * EndTxn: {@code transactionVersion2} when the client sent v5+ (KIP-890: the epoch is bumped, and the answer
     * names the producer id and epoch to go on with).
     */
    public CompletableFuture<ProducerIdAndEpoch> endTransaction(String transactionalId, long producerId,
                                                                short producerEpoch, TransactionResult result,
                                                                boolean transactionVersion2) {
        return onThread(() -> {
            if (transactionalId.isEmpty()) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_REQUEST));
            }
            Errors coordinator = partitions.error(transactionalId);
            if (coordinator != Errors.NONE) {
                return completedFuture(ProducerIdAndEpoch.failed(coordinator));
            }
            Entry entry = transactions.get(transactionalId);
            if (entry == null) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_PRODUCER_ID_MAPPING));
            }
            TransactionMetadata current = entry.metadata;
            // Under TV2 the epoch moves on at each EndTxn: a retry of it comes with the one before, or, where
            // that EndTxn moved the producer to a new id (its epoch was exhausted), with the old id and its last
            // epoch (named, not read from the state: the log does not keep the last epoch across a load).
            boolean retryAfterRotation = transactionVersion2
                    && producerId == current.previousProducerId() && producerEpoch == Short.MAX_VALUE - 1
                    && current.producerEpoch() == 0;
            if (current.producerId() != producerId && !retryAfterRotation) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_PRODUCER_ID_MAPPING));
            }
            boolean retryAfterBump = transactionVersion2 && producerEpoch == current.producerEpoch() - 1;
            boolean retry = retryAfterRotation || retryAfterBump;
            if (!validEndEpoch(current, producerEpoch, transactionVersion2, retryAfterBump, retry)) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.PRODUCER_FENCED));
            }
            if (entry.pending) {
                return completedFuture(ProducerIdAndEpoch.failed(Errors.CONCURRENT_TRANSACTIONS));
            }
            boolean commit = result == TransactionResult.COMMIT;
            TransactionState ended = commit ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT;
            TransactionState preparing = commit ? TransactionState.PREPARE_COMMIT : TransactionState.PREPARE_ABORT;
            switch (current.state()) {
                case ONGOING -> {
                    return endOngoing(entry, preparing, transactionVersion2);
                }
                case COMPLETE_COMMIT, COMPLETE_ABORT -> {
                    if (current.state() == ended && (!transactionVersion2 || retry)) {
                        return completedFuture(answer(current)); // a retry of the EndTxn that ended it
                    }
                    if (transactionVersion2 && !commit && !retry) {
                        return endOngoing(entry, preparing, true); // KIP-890: aborting when unsure is allowed
                    }
                    return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_TXN_STATE));
                }
                case EMPTY -> {
                    if (transactionVersion2 && !commit) {
                        return endOngoing(entry, preparing, true);
                    }
                    return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_TXN_STATE));
                }
                case PREPARE_COMMIT, PREPARE_ABORT -> {
                    return completedFuture(ProducerIdAndEpoch.failed(current.state() == preparing
                            ? Errors.CONCURRENT_TRANSACTIONS : Errors.INVALID_TXN_STATE));
                }
                default -> {
                    return completedFuture(ProducerIdAndEpoch.failed(Errors.INVALID_TXN_STATE));
                }
            }
        });
    }

    /**
     * Kafka's epoch check of an EndTxn. Under TV2 a prepared transaction already carries the bumped epoch, so only a
     * retry with the one before is the producer's (it waits for the markers); a completed one takes a retry or the
     * producer's next EndTxn.
     */
    private static boolean validEndEpoch(TransactionMetadata current, short producerEpoch, boolean transactionVersion2,
                                         boolean retryAfterBump, boolean retry) {
        boolean same = producerEpoch == current.producerEpoch();
        if (!transactionVersion2) {
            return same;
        }
        return switch (current.state()) {
            case PREPARE_COMMIT, PREPARE_ABORT -> retryAfterBump;
            case COMPLETE_COMMIT, COMPLETE_ABORT -> retry || same;
            default -> same;
        };
    }

    private CompletableFuture<ProducerIdAndEpoch> endOngoing(Entry entry, TransactionState preparing,
                                                             boolean transactionVersion2) {
        TransactionMetadata current = entry.metadata;
        long now = clock.wallClockMs();
        long producerId = current.producerId();
        short epoch = current.producerEpoch();
        short last = current.lastProducerEpoch();
        if (transactionVersion2) {
            last = epoch;
            epoch = (short) (epoch + 1);
        }
        long start = current.state() == TransactionState.ONGOING ? current.startTimestamp() : now;
        TransactionMetadata prepared = current.transitionTo(preparing, producerId, epoch, last,
                current.partitions(), start, now);
        if (transactionVersion2) {
            prepared = prepared.withClientTransactionVersion((short) 2);
            if (TransactionMetadata.isEpochExhausted(last)) {
                // KIP-890: the bump took the producer id's last epoch, which only its markers carry; the producer
                // goes on with a new id at epoch 0 (Kafka's nextProducerId, taken once the transaction completes).
                prepared = prepared.withNextProducerId(producerIds.getAsLong());
            }
        }
        TransactionMetadata written = prepared;
        return prepareEnd(entry, prepared).thenApply(error -> error == Errors.NONE
                ? answer(written) : ProducerIdAndEpoch.failed(error));
    }

    /** The producer id and epoch to go on with: a rotating transaction's next id, at epoch 0. */
    private static ProducerIdAndEpoch answer(TransactionMetadata metadata) {
        return metadata.nextProducerId() != TransactionMetadata.NO_PRODUCER_ID
                ? new ProducerIdAndEpoch(Errors.NONE, metadata.nextProducerId(), (short) 0)
                : new ProducerIdAndEpoch(Errors.NONE, metadata.producerId(), metadata.producerEpoch());
    }

    /**
     * Writes a PrepareCommit/PrepareAbort and, once it counts, has the markers written; the id stays pending until
     * the Complete record is written after them. Completes once the markers are sent: after the Complete record too
     * when they and the writes counted at once.
     */
    private CompletableFuture<Errors> prepareEnd(Entry entry, TransactionMetadata prepared) {
        return write(entry, prepared).thenApply(error -> {
            if (error == Errors.NONE) {
                entry.pending = true;
                sendMarkers(entry, prepared);
            }
            return error;
        });
    }

    private void sendMarkers(Entry entry, TransactionMetadata prepared) {
        TransactionResult result = prepared.state() == TransactionState.PREPARE_COMMIT
                ? TransactionResult.COMMIT : TransactionResult.ABORT;
        TransactionMarker marker = new TransactionMarker(prepared.producerId(), prepared.producerEpoch(),
                partitions.coordinatorEpoch(prepared.transactionalId()), result, prepared.clientTransactionVersion());
        markers.write(marker, prepared.partitions(), () -> owns(entry, prepared))
                .thenRun(() -> complete(entry, prepared));
    }

    /** Whether the id's state is still {@code prepared}, in this entry: not unloaded (nor loaded anew) meanwhile. */
    private boolean owns(Entry entry, TransactionMetadata prepared) {
        return entry.metadata == prepared && transactions.get(prepared.transactionalId()) == entry;
    }

    private void complete(Entry entry, TransactionMetadata prepared) {
        if (!owns(entry, prepared)) {
            return; // the partition was unloaded meanwhile; its new leader completes it
        }
        TransactionState done = prepared.state() == TransactionState.PREPARE_COMMIT
                ? TransactionState.COMPLETE_COMMIT : TransactionState.COMPLETE_ABORT;
        boolean rotates = prepared.nextProducerId() != TransactionMetadata.NO_PRODUCER_ID;
        TransactionMetadata completed = prepared.transitionTo(done,
                rotates ? prepared.nextProducerId() : prepared.producerId(),
                rotates ? 0 : prepared.producerEpoch(), prepared.lastProducerEpoch(), Set.of(),
                prepared.startTimestamp(), clock.wallClockMs())
                .withNextProducerId(TransactionMetadata.NO_PRODUCER_ID);
        entry.pending = false;
        write(entry, completed).thenAccept(error -> {
            if (error != Errors.NONE) {
                // Kafka retries the complete write too: markers are idempotent for the partitions.
                LOG.warn("Could not write {} of {}: {}; writing the markers again", done,
                        prepared.transactionalId(), error);
                entry.pending = true;
                markers.afterBackoff(() -> sendMarkers(entry, prepared));
            }
        });
    }

    // ------------------------------------------------------------------------------------------------- reading

    public CompletableFuture<List<Description>> describe(List<String> transactionalIds) {
        return onThread(() -> {
            partitions.adoptNew();
            List<Description> answers = new ArrayList<>();
            for (String id : transactionalIds) {
                if (id.isEmpty()) {
                    answers.add(new Description(Errors.INVALID_REQUEST, null)); // as Kafka, before its partition
                    continue;
                }
                Errors coordinator = partitions.error(id);
                Entry entry = transactions.get(id);
                if (coordinator != Errors.NONE) {
                    answers.add(new Description(coordinator, null));
                } else if (entry == null) {
                    answers.add(new Description(Errors.TRANSACTIONAL_ID_NOT_FOUND, null));
                } else {
                    answers.add(new Description(Errors.NONE, entry.metadata));
                }
            }
            return completedFuture(answers);
        });
    }

    public CompletableFuture<Listing> list(ListFilter filter) {
        return onThread(() -> {
            partitions.adoptNew();
            if (partitions.anyLoading()) {
                // As Kafka: while a partition loads, the listing would be partial, so none is given.
                return completedFuture(new Listing(Errors.COORDINATOR_LOAD_IN_PROGRESS, List.of()));
            }
            long now = clock.wallClockMs();
            List<TransactionMetadata> found = new ArrayList<>();
            for (Entry entry : transactions.values()) {
                TransactionMetadata metadata = entry.metadata;
                if (metadata.state() == TransactionState.DEAD
                        || (!filter.producerIds().isEmpty() && !filter.producerIds().contains(metadata.producerId()))
                        || (!filter.states().isEmpty() && !filter.states().contains(metadata.state()))
                        || (filter.minDurationMs() >= 0 && now - metadata.startTimestamp() <= filter.minDurationMs())
                        || (filter.transactionalIdPattern() != null
                            && !filter.transactionalIdPattern().matcher(metadata.transactionalId()).matches())) {
                    continue;
                }
                found.add(metadata);
            }
            return completedFuture(new Listing(Errors.NONE, found));
        });
    }

    // ------------------------------------------------------------------------------------------------- writing

    /** Writes an id's new state; once it counts the entry holds it. NONE or the error Kafka maps the failure to. */
    private CompletableFuture<Errors> write(Entry entry, TransactionMetadata next) {
        entry.pending = true;
        return writer.write(next).thenApply(error -> {
            entry.pending = false;
            if (error == Errors.NONE) {
                entry.metadata = next;
            } else if (entry.metadata.producerEpoch() == TransactionMetadata.NO_EPOCH) {
                transactions.remove(next.transactionalId()); // never written: as if never asked
            }
            return error;
        });
    }

    /** Runs a step on the coordinator's thread; what it returns may complete later. */
    private <T> CompletableFuture<T> onThread(Supplier<CompletableFuture<T>> step) {
        return CompletableFuture.supplyAsync(() -> {
            partitions.adoptNew();
            return step.get();
        }, thread).thenCompose(future -> future);
    }


    /** The partition's loads and writes this node started are dropped; the next leader's load takes them up. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
