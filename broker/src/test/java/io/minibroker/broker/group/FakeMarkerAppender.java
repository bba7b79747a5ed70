package io.minibroker.broker.group;

import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionCompletionListener;
import io.minibroker.broker.transaction.TransactionMarker;
import io.minibroker.broker.transaction.TransactionMarkerAppender;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The log side's part of the contract, as little as the group tests need: appends each marker as a control batch in
 * Kafka's layout (key: version 0, type; value: version 0, coordinator epoch) to the partitions' logs, then tells the
 * listeners of those of {@code __consumer_offsets}. No producer state, no last stable offset, no replication; a
 * single node's logs only.
 */
final class FakeMarkerAppender implements TransactionMarkerAppender {

    private final TopicRegistry topics;
    private final List<TransactionCompletionListener> listeners;

    FakeMarkerAppender(TopicRegistry topics, List<TransactionCompletionListener> listeners) {
        this.topics = topics;
        this.listeners = listeners;
    }

    @Override
    public CompletionStage<Map<TopicPartition, Errors>> append(TransactionMarker marker,
                                                               Collection<TopicPartition> partitions) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        for (TopicPartition partition : partitions) {
            PartitionLog log = topics.get(partition.topic())
                    .flatMap(topic -> topics.partitionLog(topic, partition.partition())).orElseThrow();
            // As a follower copies it: a leader's append refuses a control batch from a client.
            ByteBuf batch = controlBatch(marker, log.logEndOffset());
            try {
                log.appendAsFollower(batch);
            } finally {
                batch.release();
            }
            if (partition.topic().equals(OffsetsTopic.NAME)) {
                listeners.forEach(listener ->
                        listener.onTransactionCompleted(partition, marker.producerId(), marker.result()));
            }
            errors.put(partition, Errors.NONE);
        }
        return CompletableFuture.completedFuture(errors);
    }

    static ByteBuf controlBatch(TransactionMarker marker, long baseOffset) {
        ByteBuf key = Unpooled.buffer().writeShort(0).writeShort(marker.result().controlType());
        ByteBuf value = Unpooled.buffer().writeShort(0).writeInt(marker.coordinatorEpoch());
        return new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, baseOffset, 0L)
                .producer(marker.producerId(), marker.producerEpoch(), -1).transactional(true).control(true)
                .append(0L, bytes(key), bytes(value), List.of()).build();
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }
}
