package io.minibroker.broker.transaction;

import io.minibroker.broker.api.PartitionLeadership;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;

/**
 * The coordinator's own {@link TransactionMarkerAppender} for the partitions of its node: each marker is a control
 * batch in Kafka's layout (transactional and control flags, the producer's id and epoch, one record whose key is
 * version 0 and the ControlRecordType, whose value is version 0 and the coordinator epoch), appended to the
 * partition's log and counted once appended, as a single node's acks=all produce. It runs on the coordinator's
 * thread, as the transactional produces do, so a producer's batches and its markers keep their order.
 *
 * <p>This covers the marker alone: it leaves the producer's state, the last stable offset, the aborted transaction
 * index and the group coordinator's pending offsets to the log's appender, which the broker uses instead once there
 * is one ({@code Broker.markerAppender}).
 */
public final class LocalControlBatchAppender implements TransactionMarkerAppender {

    private static final short CONTROL_RECORD_VERSION = 0;

    private final TopicRegistry topics;
    private final PartitionLeadership leadership;
    private final BrokerClock clock;
    /** Told of each partition a marker was appended to, so fetches parked there see it. */
    private final Consumer<TopicPartition> appended;

    public LocalControlBatchAppender(TopicRegistry topics, PartitionLeadership leadership, BrokerClock clock,
                                     Consumer<TopicPartition> appended) {
        this.topics = topics;
        this.leadership = leadership;
        this.clock = clock;
        this.appended = appended;
    }

    @Override
    public CompletionStage<Map<TopicPartition, Errors>> append(TransactionMarker marker,
                                                               Collection<TopicPartition> partitions) {
        Map<TopicPartition, Errors> results = new HashMap<>();
        for (TopicPartition partition : partitions) {
            results.put(partition, appendTo(marker, partition));
        }
        return CompletableFuture.completedFuture(results);
    }

    private Errors appendTo(TransactionMarker marker, TopicPartition partition) {
        Optional<PartitionLog> log = topics.get(partition.topic())
                .flatMap(topic -> topics.partitionLog(topic, partition.partition()));
        if (log.isEmpty()) {
            return Errors.UNKNOWN_TOPIC_OR_PARTITION;
        }
        LogException refused = leadership.appendRefusal(partition, 0);
        if (refused != null) {
            return refused.error();
        }
        // A leader's append refuses control batches (they are not a client's to write); written here as a
        // replica's append is, with its offset, at the log's end. A produce that lands first makes it miss the
        // end: refused, and the coordinator writes it again after its backoff.
        ByteBuf batch = controlBatch(marker, log.get().logEndOffset(), leadership.leaderEpoch(partition));
        try {
            log.get().appendAsFollower(batch);
        } catch (LogException e) {
            return e.error();
        } finally {
            batch.release();
        }
        leadership.onLeaderAppend(partition);
        appended.accept(partition);
        return Errors.NONE;
    }

    private ByteBuf controlBatch(TransactionMarker marker, long baseOffset, int leaderEpoch) {
        long now = clock.wallClockMs();
        byte[] key = ByteBufUtil.getBytes(Unpooled.buffer(4).writeShort(CONTROL_RECORD_VERSION)
                .writeShort(marker.result().controlType()));
        byte[] value = ByteBufUtil.getBytes(Unpooled.buffer(6).writeShort(CONTROL_RECORD_VERSION)
                .writeInt(marker.coordinatorEpoch()));
        return new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, baseOffset, now)
                .producer(marker.producerId(), marker.producerEpoch(), -1)
                .partitionLeaderEpoch(leaderEpoch)
                .transactional(true)
                .control(true)
                .append(now, key, value, List.of())
                .build();
    }
}
