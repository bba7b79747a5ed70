package io.minibroker.broker.transaction;

import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import java.util.function.LongSupplier;

/**
 * The coordinator's two background rounds over its ids, Kafka's abortTimedOutTransactions and
 * removeExpiredTransactionalIds: an ongoing transaction open past its own timeout is aborted with its epoch bumped,
 * so the producer that left it is fenced ({@code transaction.abort.timed.out.transaction.cleanup.interval.ms}); an id
 * idle, Empty or completed, past {@code transactional.id.expiration.ms} is removed with a tombstone
 * ({@code transaction.remove.expired.transaction.cleanup.interval.ms}). Kept apart from the requests' rules because
 * no client asks for either: time alone decides, and each round only picks ids and starts the same writes a request
 * would.
 *
 * <p>Threading: both rounds run on the coordinator's thread, which owns the ids' states they read.
 */
final class TransactionExpiry {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionExpiry.class);

    private final Map<String, TransactionCoordinator.Entry> transactions;
    private final TransactionStateWriter writer;
    /** The coordinator's way to end a transaction: writes the PrepareAbort, then the markers and the Complete. */
    private final BiConsumer<TransactionCoordinator.Entry, TransactionMetadata> prepareEnd;
    /**
     * Its ids' expiration, and the finalized {@code transaction.version}
     * ({@link TransactionMetadata#lastEpochWhenFenced}).
     */
    private final TransactionConfig config;
    /** New producer ids, for a producer moved off its id's last epoch. */
    private final LongSupplier producerIds;
    private final BrokerClock clock;

    TransactionExpiry(Map<String, TransactionCoordinator.Entry> transactions, TransactionStateWriter writer,
                      BiConsumer<TransactionCoordinator.Entry, TransactionMetadata> prepareEnd,
                      TransactionConfig config, LongSupplier producerIds, BrokerClock clock) {
        this.transactions = transactions;
        this.writer = writer;
        this.prepareEnd = prepareEnd;
        this.config = config;
        this.producerIds = producerIds;
        this.clock = clock;
    }

    /** Aborts every ongoing transaction past its timeout, bumping the epoch so its producer is fenced. */
    void abortTimedOutTransactions() {
        long now = clock.wallClockMs();
        for (TransactionCoordinator.Entry entry : List.copyOf(transactions.values())) {
            TransactionMetadata current = entry.metadata;
            if (entry.pending || current.state() != TransactionState.ONGOING
                    || current.startTimestamp() + current.timeoutMs() >= now) {
                continue;
            }
            LOG.info("Aborting transaction of {} (producer {}, epoch {}): open longer than its timeout of {} ms",
                    current.transactionalId(), current.producerId(), current.producerEpoch(), current.timeoutMs());
            // As Kafka's prepareFenceProducerEpoch, the epoch is bumped up to Short.MAX_VALUE (an ongoing
            // transaction's is below it; only that one would overflow). Under transaction version 2 a bump onto the
            // id's last epoch also moves the producer to a new id at completion, as an EndTxn's does (KIP-890):
            // else its EndTxn retried after this abort would go on from Short.MAX_VALUE.
            short epoch = current.producerEpoch();
            boolean bump = epoch < Short.MAX_VALUE;
            short last = bump ? current.lastEpochWhenFenced(config.transactionVersion()) : current.lastProducerEpoch();
            TransactionMetadata prepared = current.transitionTo(TransactionState.PREPARE_ABORT, current.producerId(),
                    bump ? (short) (epoch + 1) : epoch, last, current.partitions(), current.startTimestamp(), now);
            if (current.clientTransactionVersion() >= 2 && TransactionMetadata.isEpochExhausted(epoch)) {
                prepared = prepared.withNextProducerId(producerIds.getAsLong());
            }
            prepareEnd.accept(entry, prepared);
        }
    }

    /** Removes the ids idle (Empty or completed) for {@code transactional.id.expiration.ms}, with a tombstone each. */
    void removeExpiredTransactionalIds() {
        long now = clock.wallClockMs();
        for (TransactionCoordinator.Entry entry : List.copyOf(transactions.values())) {
            TransactionMetadata current = entry.metadata;
            if (entry.pending || !current.state().expirationAllowed()
                    || current.lastUpdateTimestamp() + config.idExpirationMs() > now) {
                continue;
            }
            String id = current.transactionalId();
            entry.pending = true;
            writer.remove(id).thenAccept(error -> {
                entry.pending = false;
                if (error == Errors.NONE && transactions.get(id) == entry) {
                    transactions.remove(id);
                    LOG.info("Removed transactional id {}, idle since {}", id, current.lastUpdateTimestamp());
                }
            });
        }
    }
}
