package io.minibroker.broker.transaction;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReplay;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * {@code __transaction_state} in this node's logs. A record counts as its {@link CoordinatorAppender} says, as the
 * offsets topic's writes do (Kafka writes with acks=-1): on a single node once appended and flushed; in a cluster
 * once the partition's leader (this node, or the write is NOT_LEADER_OR_FOLLOWER) has it replicated to
 * {@code min.insync.replicas}. Records are uncompressed, as Kafka enforces for this topic.
 */
public final class TransactionStateTopic implements TransactionStateLog {

    private static final Logger LOG = LoggerFactory.getLogger(TransactionStateTopic.class);
    public static final String NAME = InternalTopics.TRANSACTION_STATE;

    private final TopicRegistry topics;
    private final CoordinatorAppender appender;
    private final BrokerClock clock;

    public TransactionStateTopic(TopicRegistry topics, CoordinatorAppender appender, BrokerClock clock) {
        this.topics = topics;
        this.appender = appender;
        this.clock = clock;
    }

    @Override
    public int partitionCount() {
        return topics.get(NAME).map(TopicMetadata::partitions).orElse(0);
    }

    @Override
    public CompletableFuture<Void> write(int partition, byte[] key, byte[] value) {
        PartitionLog log = logOf(partition).orElseThrow(() -> new LogException(Errors.NOT_COORDINATOR,
                "no log of " + new TopicPartition(NAME, partition) + " here"));
        long now = clock.wallClockMs();
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, now)
                .append(now, key, value, List.of()).build();
        try {
            return appender.append(log, batch).thenApply(firstOffset -> null);
        } catch (LogException e) {
            return CompletableFuture.failedFuture(e);
        } finally {
            batch.release();
        }
    }

    @Override
    public void replay(int partition, ReplaySink sink) {
        Optional<PartitionLog> found = logOf(partition);
        if (found.isEmpty()) {
            return;
        }
        PartitionLog log = found.get();
        LogReplay.replay(log, (batch, record) -> applyReadable(log, record, sink));
    }

    /** One unreadable record (a later version) must not keep the partition's other ids from loading. */
    private static void applyReadable(PartitionLog log, Record record, ReplaySink sink) {
        try {
            ByteBuf key = record.key();
            String transactionalId = key == null ? null : TransactionLogRecord.readKey(key);
            if (transactionalId == null) {
                return;
            }
            ByteBuf value = record.value();
            sink.stored(transactionalId, value == null ? null : TransactionLogRecord.readValue(transactionalId, value));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            LOG.warn("Skipped the unreadable record at offset {} of {}: {}", record.offset(), log.topicPartition(),
                    e.toString());
        }
    }

    private Optional<PartitionLog> logOf(int partition) {
        return topics.get(NAME).flatMap(topic -> topics.partitionLog(topic, partition));
    }
}
