package io.minibroker.broker.group;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatch;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Committed offsets written to the internal topic {@code __consumer_offsets}, so they survive a restart. Each
 * commit is one record keyed by (group, topic, partition) in the partition its group hashes to; a null value
 * (tombstone) forgets a commit, as when its group is deleted. On start the whole topic is replayed in order,
 * the last record for a key winning. The topic is created on the first commit with
 * {@code offsets.topic.num.partitions} partitions and one replica (this broker is the only one).
 *
 * <p>Differs from Kafka: both key and value are our own layouts. The key has the fields of Kafka's
 * OffsetCommitKey v1 (version, group, topic, partition) but writes string lengths as int32 where Kafka writes
 * int16; the value (offset, leader epoch, optional metadata) is not OffsetCommitValue and lacks the commit
 * timestamp that offset expiry will need; group metadata records are not written. Kafka's tools therefore cannot
 * read this topic. Moving to Kafka's layouts comes with offset expiry.
 */
final class OffsetsTopic {

    static final String NAME = "__consumer_offsets";
    private static final short KEY_VERSION = 1;
    private static final int REPLAY_READ_BYTES = 1 << 20;

    private final TopicRegistry topics;
    private final int partitions;

    OffsetsTopic(TopicRegistry topics, int partitions) {
        this.topics = topics;
        this.partitions = partitions;
    }

    /**
     * Writes a group's commits as one batch, so that a request's offsets land (and are flushed) together or not
     * at all; throws LogException if the log refuses the batch.
     */
    void writeCommits(String groupId, Map<TopicPartition, OffsetStore.CommittedOffset> offsets) {
        append(groupId, offsets.keySet(), offsets::get);
    }

    /** Writes one batch of tombstones forgetting a group's commits; throws LogException if the log refuses it. */
    void writeTombstones(String groupId, Collection<TopicPartition> partitions) {
        append(groupId, partitions, partition -> null);
    }

    private void append(String groupId, Collection<TopicPartition> partitions,
                        Function<TopicPartition, OffsetStore.CommittedOffset> offsetOf) {
        long now = System.currentTimeMillis();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, now);
        for (TopicPartition partition : partitions) {
            OffsetStore.CommittedOffset offset = offsetOf.apply(partition);
            builder.append(now, key(groupId, partition), offset == null ? null : value(offset), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            logFor(groupId).append(batch, 0);
        } finally {
            batch.release();
        }
    }

    /** Replays every commit in the topic, if it exists, into {@code store}, bypassing {@link #write}. */
    void replayInto(Map<String, Map<TopicPartition, OffsetStore.CommittedOffset>> store) {
        Optional<TopicMetadata> topic = topics.get(NAME);
        if (topic.isEmpty()) {
            return;
        }
        for (int index = 0; index < topic.get().partitions(); index++) {
            Optional<PartitionLog> log = topics.partitionLog(topic.get(), index);
            if (log.isPresent()) {
                replayPartition(log.get(), store);
            }
        }
    }

    private static void replayPartition(PartitionLog log,
                                        Map<String, Map<TopicPartition, OffsetStore.CommittedOffset>> store) {
        long offset = log.logStartOffset();
        long end = log.logEndOffset();
        while (offset < end) {
            LogReadResult read = log.read(offset, REPLAY_READ_BYTES, true, end);
            if (read.isEmpty()) {
                return;
            }
            ByteBuf buffer = read.readInto(ByteBufAllocator.DEFAULT);
            try {
                RecordBatches batches = RecordBatches.of(buffer);
                while (batches.hasNext()) {
                    RecordBatch batch = batches.next();
                    try (RecordIterator records = batch.records(ByteBufAllocator.DEFAULT)) {
                        while (records.hasNext()) {
                            apply(records.next(), store);
                        }
                    }
                    offset = batch.lastOffset() + 1;
                }
            } finally {
                buffer.release();
            }
        }
    }

    private static void apply(Record record, Map<String, Map<TopicPartition, OffsetStore.CommittedOffset>> store) {
        ByteBuf key = record.key();
        if (key == null || key.readShort() != KEY_VERSION) {
            return; // not a record this broker wrote
        }
        String groupId = readString(key);
        TopicPartition partition = new TopicPartition(readString(key), key.readInt());
        ByteBuf value = record.value();
        if (value == null) {
            Map<TopicPartition, OffsetStore.CommittedOffset> group = store.get(groupId);
            if (group != null) {
                group.remove(partition);
                if (group.isEmpty()) {
                    store.remove(groupId);
                }
            }
            return;
        }
        long committed = value.readLong();
        int leaderEpoch = value.readInt();
        String metadata = value.readBoolean() ? readString(value) : null;
        store.computeIfAbsent(groupId, g -> new java.util.concurrent.ConcurrentHashMap<>())
                .put(partition, new OffsetStore.CommittedOffset(committed, leaderEpoch, metadata));
    }

    private PartitionLog logFor(String groupId) {
        TopicMetadata topic = topics.get(NAME).orElseGet(() -> {
            TopicRegistry.Outcome created = topics.create(NAME, partitions, 1, Map.of(), false);
            // Another commit may have created it first: then it is there to use.
            return topics.get(NAME).orElseThrow(() -> new LogException(
                    created.error() == null ? Errors.COORDINATOR_NOT_AVAILABLE : created.error(),
                    "cannot create " + NAME + ": " + created.message()));
        });
        int index = Math.floorMod(groupId.hashCode(), topic.partitions());
        return topics.partitionLog(topic, index).orElseThrow(() -> new LogException(
                Errors.COORDINATOR_NOT_AVAILABLE, NAME + "-" + index + " has no log"));
    }

    private static byte[] key(String groupId, TopicPartition partition) {
        ByteBuf key = Unpooled.buffer();
        key.writeShort(KEY_VERSION);
        writeString(key, groupId);
        writeString(key, partition.topic());
        key.writeInt(partition.partition());
        return bytes(key);
    }

    private static byte[] value(OffsetStore.CommittedOffset offset) {
        ByteBuf value = Unpooled.buffer();
        value.writeLong(offset.offset());
        value.writeInt(offset.leaderEpoch());
        value.writeBoolean(offset.metadata() != null);
        if (offset.metadata() != null) {
            writeString(value, offset.metadata());
        }
        return bytes(value);
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    private static void writeString(ByteBuf buf, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        buf.writeInt(utf8.length);
        buf.writeBytes(utf8);
    }

    private static String readString(ByteBuf buf) {
        int length = buf.readInt();
        return buf.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }
}
