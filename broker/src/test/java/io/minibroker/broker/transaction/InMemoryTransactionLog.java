package io.minibroker.broker.transaction;

import io.minibroker.broker.log.LogException;
import io.minibroker.protocol.error.Errors;
import io.netty.buffer.Unpooled;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;

/**
 * A {@code __transaction_state} in memory for the coordinator's tests: the records it was given in Kafka's bytes,
 * replayed through the real codec; a write can be made to fail, or held until the test releases it, and a replay
 * can run a step of the test first.
 */
final class InMemoryTransactionLog implements TransactionStateLog {

    record Written(int partition, byte[] key, byte[] value) {
    }

    final List<Written> records = new ArrayList<>();
    private final int partitions;
    volatile Errors failWrites = Errors.NONE;
    volatile boolean holdWrites;
    /** Run at the start of each replay, with its partition, on the replaying thread. */
    volatile IntConsumer onReplay;
    private final List<CompletableFuture<Void>> held = new ArrayList<>();

    InMemoryTransactionLog(int partitions) {
        this.partitions = partitions;
    }

    @Override
    public int partitionCount() {
        return partitions;
    }

    @Override
    public synchronized CompletableFuture<Void> write(int partition, byte[] key, byte[] value) {
        if (failWrites != Errors.NONE) {
            return CompletableFuture.failedFuture(new LogException(failWrites, "refused by the test"));
        }
        records.add(new Written(partition, key, value));
        if (holdWrites) {
            CompletableFuture<Void> answer = new CompletableFuture<>();
            held.add(answer);
            return answer;
        }
        return CompletableFuture.completedFuture(null);
    }

    /** Lets the writes held so far count, and stops holding. */
    void releaseWrites() {
        List<CompletableFuture<Void>> released;
        synchronized (this) {
            holdWrites = false;
            released = List.copyOf(held);
            held.clear();
        }
        released.forEach(answer -> answer.complete(null));
    }

    synchronized int heldWrites() {
        return held.size();
    }

    @Override
    public synchronized void replay(int partition, ReplaySink sink) {
        IntConsumer first = onReplay;
        if (first != null) {
            first.accept(partition);
        }
        for (Written record : records) {
            if (record.partition() != partition) {
                continue;
            }
            String id = TransactionLogRecord.readKey(Unpooled.wrappedBuffer(record.key()));
            sink.stored(id, record.value() == null ? null
                    : TransactionLogRecord.readValue(id, Unpooled.wrappedBuffer(record.value())));
        }
    }

    /** The states written for one id, in order. */
    synchronized List<TransactionState> statesOf(String transactionalId) {
        List<TransactionState> states = new ArrayList<>();
        for (Written record : records) {
            String id = TransactionLogRecord.readKey(Unpooled.wrappedBuffer(record.key()));
            if (id.equals(transactionalId) && record.value() != null) {
                states.add(TransactionLogRecord.readValue(id, Unpooled.wrappedBuffer(record.value())).state());
            }
        }
        return states;
    }

    synchronized boolean hasTombstoneFor(String transactionalId) {
        return records.stream().anyMatch(record -> record.value() == null
                && TransactionLogRecord.readKey(Unpooled.wrappedBuffer(record.key())).equals(transactionalId));
    }
}
