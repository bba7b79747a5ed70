package io.minibroker.broker.group;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReadResult;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.topic.InternalTopics;
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
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Committed offsets and group metadata written to the internal topic {@code __consumer_offsets}, so they survive a
 * restart (and, in a cluster, the coordinator's death). Each commit is one record keyed by (group, topic,
 * partition), each group's membership one record keyed by the group ({@link GroupMetadataRecord}), both in the
 * partition the group hashes to ({@link #partitionFor}, Kafka's function); a null value (tombstone) forgets a
 * commit or a group, as when the group is deleted. Replaying a partition in order, the last record for a key
 * winning, rebuilds its commits and groups.
 *
 * <p>On a single node the topic is created here on the first commit, with {@code offsets.topic.num.partitions}
 * partitions, one replica and Kafka's {@code cleanup.policy=compact}, and replayed whole on start. In a cluster the
 * controller creates it (asked for by {@link ClusterCoordinatorLocator}, through the broker's topic auto-creation)
 * and each partition is replayed by the broker that comes to lead it; how a write counts is the
 * {@link OffsetsAppender}'s business.
 *
 * <p>The group metadata record is Kafka's layout (GroupMetadataKey, GroupMetadataValue v3); the commit record
 * is not yet. Its key has the fields of Kafka's OffsetCommitKey v1 (version, group, topic, partition) but writes
 * string lengths as int32 where Kafka writes int16; its value (offset, leader epoch, optional metadata) is not
 * OffsetCommitValue and lacks the commit timestamp that offset expiry will need. Kafka's tools therefore cannot
 * read the commits in this topic. Moving the commits to Kafka's layout comes with offset expiry.
 */
final class OffsetsTopic {

    static final String NAME = InternalTopics.CONSUMER_OFFSETS;
    private static final short OFFSET_KEY_VERSION = 1;
    private static final int REPLAY_READ_BYTES = 1 << 20;

    /** What replaying the topic finds, in log order, each with the offset of its record. */
    interface ReplaySink {
        void committed(String groupId, TopicPartition partition, OffsetStore.CommittedOffset offset, long logOffset);

        void deleted(String groupId, TopicPartition partition, long logOffset);
    }

    /** What replaying the topic finds of groups' metadata, in log order: the group, or null for its tombstone. */
    interface GroupSink {
        void stored(String groupId, GroupMetadataRecord.StoredGroup group);
    }

    /** One record of a batch; a null value is a tombstone. */
    private record Entry(byte[] key, byte[] value) {
    }

    private final TopicRegistry topics;
    private final int configuredPartitions;
    /** The topic configs a single node creates the topic with (a cluster's controller is asked for them instead). */
    private final Map<String, String> topicConfigs;
    private final OffsetsAppender appender;
    private final boolean singleNode;

    /**
     * @param singleNode whether this is a single node, which creates the topic on its first write and keeps the
     *                   placement it always had; in a cluster the controller creates it and this broker only
     *                   writes to partitions it hosts
     */
    OffsetsTopic(TopicRegistry topics, int configuredPartitions, Map<String, String> topicConfigs,
                 OffsetsAppender appender, boolean singleNode) {
        this.topics = topics;
        this.configuredPartitions = configuredPartitions;
        this.topicConfigs = topicConfigs;
        this.appender = appender;
        this.singleNode = singleNode;
    }

    /**
     * Kafka's {@code partitionFor}: {@code Utils.abs(groupId.hashCode()) % partitions}, where {@code Utils.abs}
     * maps Integer.MIN_VALUE to 0.
     */
    static int partitionFor(String groupId, int partitions) {
        int hash = groupId.hashCode();
        return (hash == Integer.MIN_VALUE ? 0 : Math.abs(hash)) % partitions;
    }

    /**
     * The partition a group's commits go to, by the topic's partition count (the configured one before it exists).
     * A single node keeps the placement it always had, {@code floorMod(hashCode, partitions)}, which differs from
     * Kafka's for negative hash codes: a group's records must all be in one partition for its replay to keep their
     * order, and there the placement names no coordinator. In a cluster it is Kafka's.
     */
    int partitionFor(String groupId) {
        int partitions = topics.get(NAME).map(TopicMetadata::partitions).orElse(configuredPartitions);
        return singleNode ? Math.floorMod(groupId.hashCode(), partitions) : partitionFor(groupId, partitions);
    }

    /**
     * Writes a group's commits as one batch, so that a request's offsets land (and are flushed) together or not
     * at all. Throws LogException if the log refuses the batch at once; the future completes with the batch's first
     * offset once the write counts, or exceptionally with a LogException (in a cluster: not replicated).
     */
    CompletableFuture<Long> writeCommits(String groupId, Map<TopicPartition, OffsetStore.CommittedOffset> offsets) {
        List<Entry> entries = new ArrayList<>();
        offsets.forEach((partition, offset) -> entries.add(new Entry(key(groupId, partition), value(offset))));
        return append(groupId, entries);
    }

    /** Writes a group's metadata as one record, as {@link #writeCommits} writes commits. */
    CompletableFuture<Long> writeGroup(String groupId, GroupMetadataRecord.StoredGroup group) {
        return append(groupId, List.of(new Entry(GroupMetadataRecord.key(groupId), GroupMetadataRecord.value(group))));
    }

    /**
     * Writes one batch of tombstones deleting a group: one for each of these commits, and one for its metadata,
     * as {@link #writeCommits} writes commits.
     */
    CompletableFuture<Long> writeGroupDeletion(String groupId, Collection<TopicPartition> partitions) {
        List<Entry> entries = commitTombstones(groupId, partitions);
        entries.add(new Entry(GroupMetadataRecord.key(groupId), null));
        return append(groupId, entries);
    }

    /** Writes one batch of tombstones deleting these commits of a group (OffsetDelete), as {@link #writeCommits}. */
    CompletableFuture<Long> writeCommitDeletion(String groupId, Collection<TopicPartition> partitions) {
        return append(groupId, commitTombstones(groupId, partitions));
    }

    private static List<Entry> commitTombstones(String groupId, Collection<TopicPartition> partitions) {
        List<Entry> entries = new ArrayList<>();
        partitions.forEach(partition -> entries.add(new Entry(key(groupId, partition), null)));
        return entries;
    }

    private CompletableFuture<Long> append(String groupId, List<Entry> entries) {
        long now = System.currentTimeMillis();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, now);
        for (Entry entry : entries) {
            builder.append(now, entry.key(), entry.value(), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            return appender.append(logFor(groupId), batch);
        } finally {
            batch.release();
        }
    }

    /** Replays every commit and group in the topic, if it exists (a single node's start). */
    void replayAll(ReplaySink sink, GroupSink groups) {
        Optional<TopicMetadata> topic = topics.get(NAME);
        if (topic.isEmpty()) {
            return;
        }
        for (int index = 0; index < topic.get().partitions(); index++) {
            replayPartition(index, sink, groups);
        }
    }

    /** Replays one partition of the topic up to its log end now, if this broker has its log. */
    void replayPartition(int index, ReplaySink sink, GroupSink groups) {
        Optional<PartitionLog> log = topics.get(NAME).flatMap(topic -> topics.partitionLog(topic, index));
        if (log.isPresent()) {
            replay(log.get(), sink, groups);
        }
    }

    private static void replay(PartitionLog log, ReplaySink sink, GroupSink groups) {
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
                            apply(records.next(), sink, groups);
                        }
                    }
                    offset = batch.lastOffset() + 1;
                }
            } finally {
                buffer.release();
            }
        }
    }

    private static void apply(Record record, ReplaySink sink, GroupSink groups) {
        ByteBuf key = record.key();
        if (key == null) {
            return; // not a record this broker wrote
        }
        short keyVersion = key.readShort();
        if (keyVersion == GroupMetadataRecord.KEY_VERSION) {
            String groupId = GroupMetadataRecord.readGroupId(key);
            ByteBuf value = record.value();
            groups.stored(groupId, value == null ? null : GroupMetadataRecord.readValue(value));
            return;
        }
        if (keyVersion != OFFSET_KEY_VERSION) {
            return; // not a record this broker wrote
        }
        String groupId = readString(key);
        TopicPartition partition = new TopicPartition(readString(key), key.readInt());
        ByteBuf value = record.value();
        if (value == null) {
            sink.deleted(groupId, partition, record.offset());
            return;
        }
        long committed = value.readLong();
        int leaderEpoch = value.readInt();
        String metadata = value.readBoolean() ? readString(value) : null;
        sink.committed(groupId, partition, new OffsetStore.CommittedOffset(committed, leaderEpoch, metadata),
                record.offset());
    }

    private PartitionLog logFor(String groupId) {
        Optional<TopicMetadata> existing = topics.get(NAME);
        if (existing.isEmpty() && !singleNode) {
            throw new LogException(Errors.NOT_LEADER_OR_FOLLOWER, NAME + " is not hosted here");
        }
        TopicMetadata topic = existing.orElseGet(() -> {
            TopicRegistry.Outcome created = topics.create(NAME, configuredPartitions, 1, topicConfigs, false);
            // Another commit may have created it first: then it is there to use.
            return topics.get(NAME).orElseThrow(() -> new LogException(
                    created.error() == null ? Errors.COORDINATOR_NOT_AVAILABLE : created.error(),
                    "cannot create " + NAME + ": " + created.message()));
        });
        int index = partitionFor(groupId);
        return topics.partitionLog(topic, index).orElseThrow(() -> new LogException(
                Errors.COORDINATOR_NOT_AVAILABLE, NAME + "-" + index + " has no log"));
    }

    private static byte[] key(String groupId, TopicPartition partition) {
        ByteBuf key = Unpooled.buffer();
        key.writeShort(OFFSET_KEY_VERSION);
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
