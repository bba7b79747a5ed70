package io.minibroker.broker.group;

import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.LogReplay;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.log.VerificationGuard;
import io.minibroker.broker.topic.InternalTopics;
import io.minibroker.broker.topic.TopicMetadata;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.types.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Committed offsets and group metadata written to the internal topic {@code __consumer_offsets}, so they survive a
 * restart (and, in a cluster, the coordinator's death). Each commit is one record keyed by (group, topic,
 * partition), each group's membership one record keyed by the group ({@link GroupMetadataRecord}), both in the
 * partition the group hashes to ({@link #partitionFor}, Kafka's function); a null value (tombstone) forgets a
 * commit or a group, as when the group is deleted. Replaying a partition in order, the last record for a key
 * winning, rebuilds its commits and groups.
 *
 * <p>The first FindCoordinator has the topic created ({@link CoordinatorLocator#forGroups}), as Kafka does: on a
 * single node here, with one replica, and replayed whole on start; in a cluster by the controller, each partition
 * replayed by the broker that comes to lead it. A single node still creates it on a group's first write if no
 * FindCoordinator came first (a client that knows its coordinator already). How a write counts is the
 * {@link CoordinatorAppender}'s business.
 *
 * <p>Both records are Kafka's layouts: GroupMetadataKey and GroupMetadataValue v3 ({@link GroupMetadataRecord}),
 * OffsetCommitKey (type 1: group, topic, partition, strings with int16 lengths) and OffsetCommitValue v3 (offset,
 * leader epoch, metadata, commit timestamp), so Kafka's tools read this topic. Commits written by earlier
 * versions of minibroker (the same key fields with int32 string lengths; a value of offset, leader epoch and
 * optional metadata, without a version or a timestamp) are still read: a key that does not parse whole as Kafka's
 * is one of those, and its commit counts as made when its record was appended.
 *
 * <p>Commits made in a transaction (TxnOffsetCommit) are written as a transactional batch of the producer; a
 * replay hands them over with that producer id, and the transaction markers (control batches) that end them.
 */
final class OffsetsTopic {

    private static final Logger LOG = LoggerFactory.getLogger(OffsetsTopic.class);
    static final String NAME = InternalTopics.CONSUMER_OFFSETS;
    /** OffsetCommitKey's record type; 0 is the same key, as written before Kafka 0.9's version 1. */
    private static final short OFFSET_KEY_VERSION = 1;
    /** OffsetCommitValue as Kafka 4.3.1 writes it: flexible, the topic id as tagged field 0 when known. */
    private static final short OFFSET_VALUE_VERSION = 4;
    /** OffsetCommitValue for a commit with an expiry time of its own: the only version with ExpireTimestamp. */
    private static final short OFFSET_VALUE_WITH_EXPIRY_VERSION = 1;
    private static final short FIRST_FLEXIBLE_OFFSET_VALUE_VERSION = 4;
    private static final int TOPIC_ID_TAG = 0;
    /** Kafka's Uuid.ZERO_UUID, the topic id field's default: a commit that named no id. */
    private static final UUID ZERO_UUID = new UUID(0, 0);
    /** Kafka's RecordBatch.NO_PRODUCER_ID: a batch of no transaction. */
    static final long NO_PRODUCER_ID = -1L;
    /** The base sequence of a coordinator's transactional batch, Kafka's (its log does not check it). */
    private static final int COORDINATOR_SEQUENCE = 0;
    /** What a write of no records completes with, in place of the offset a batch was appended at. */
    private static final long NOTHING_WRITTEN = -1L;
    /** Kafka's RecordBatch.NO_SEQUENCE: what its coordinator verifies a TxnOffsetCommit's producer with. */
    private static final int NO_SEQUENCE = -1;

    /**
     * What replaying the topic finds, in log order, each with the offset of its record, and whether its key is in
     * the layout of earlier versions of minibroker ({@link #legacyKey}), which a tombstone must repeat to delete it.
     */
    interface ReplaySink {
        /** A commit; {@code producerId} is the transaction's for a commit of one (TxnOffsetCommit), else -1. */
        void committed(String groupId, TopicPartition partition, OffsetStore.CommittedOffset offset, long logOffset,
                       long commitTimestamp, boolean legacyKey, long producerId);

        void deleted(String groupId, TopicPartition partition, long logOffset, boolean legacyKey);

        /** A transaction marker (control batch) of the producer, on partition {@code index} of the topic. */
        void transactionEnded(int index, long producerId, TransactionResult result);
    }

    /** What replaying the topic finds of groups' metadata, in log order: the group, or null for its tombstone. */
    interface GroupSink {
        void stored(String groupId, GroupMetadataRecord.StoredGroup group);

        /** A consumer group's record ({@link ConsumerGroupRecords}): its key after the type, its value or null. */
        default void consumerGroupRecord(short type, ByteBuf key, ByteBuf value) {
        }

        /** A share group's record ({@link ShareGroupRecords}): its key after the type, its value or null. */
        default void shareGroupRecord(short type, ByteBuf key, ByteBuf value) {
        }

        /** A streams group's record ({@link StreamsGroupRecords}): its key after the type, its value or null. */
        default void streamsGroupRecord(short type, ByteBuf key, ByteBuf value) {
        }
    }

    /** One record of a batch; a null value is a tombstone. */
    private record Entry(byte[] key, byte[] value) {
    }

    /**
     * The producer a transactional batch is written for (TxnOffsetCommit's producer id and epoch), and the guard of
     * the verification its write presents ({@link #startTransactionVerification}).
     */
    private record Producer(long id, short epoch, VerificationGuard guard) {
    }

    private final TopicRegistry topics;
    private final int configuredPartitions;
    private final CoordinatorAppender appender;
    private final boolean singleNode;
    /** Stamps the records written, as Kafka stamps its coordinator's writes. */
    private final BrokerClock clock;

    /**
     * @param singleNode whether this is a single node, which creates the topic on its first write and keeps the
     *                   placement it always had; in a cluster the controller creates it and this broker only
     *                   writes to partitions it hosts
     */
    OffsetsTopic(TopicRegistry topics, int configuredPartitions, CoordinatorAppender appender, boolean singleNode,
                 BrokerClock clock) {
        this.topics = topics;
        this.clock = clock;
        this.configuredPartitions = configuredPartitions;
        this.appender = appender;
        this.singleNode = singleNode;
    }

    /**
     * The partition a group's commits go to, by the topic's partition count (the configured one before it exists).
     * A single node keeps the placement it always had, {@code floorMod(hashCode, partitions)}, which differs from
     * Kafka's for negative hash codes: a group's records must all be in one partition for its replay to keep their
     * order, and there the placement names no coordinator. In a cluster it is Kafka's.
     */
    int partitionFor(String groupId) {
        int partitions = topics.get(NAME).map(TopicMetadata::partitions).orElse(configuredPartitions);
        return singleNode ? Math.floorMod(groupId.hashCode(), partitions)
                : InternalTopics.partitionFor(groupId, partitions);
    }

    /**
     * Writes a group's commits as one batch, so that a request's offsets land (and are flushed) together or not
     * at all. Throws LogException if the log refuses the batch at once; the future completes with the batch's first
     * offset once the write counts, or exceptionally with a LogException (in a cluster: not replicated).
     */
    CompletableFuture<Long> writeCommits(String groupId, Map<TopicPartition, OffsetStore.CommittedOffset> offsets,
                                         long commitTimestamp) {
        return append(groupId, () -> commitEntries(groupId, offsets, commitTimestamp));
    }

    /**
     * Starts a verification of a TxnOffsetCommit's producer on the group's partition of the topic, before its
     * transaction coordinator is asked (Kafka's group coordinator starts it through its partition writer): the guard
     * {@link #writeTransactionalCommits} presents, or {@link VerificationGuard#SENTINEL} if the producer has its
     * transaction open there at {@code producerEpoch} already, which needs neither a guard nor the coordinator. A
     * coordinator's batch has no sequence to hold others back by.
     *
     * @param supportsEpochBump the producer uses transaction version 2 (TxnOffsetCommit v5+)
     * @throws LogException INVALID_PRODUCER_EPOCH for an epoch older than the producer's there, or the partition's
     *     error (its log is not here)
     */
    VerificationGuard startTransactionVerification(String groupId, long producerId, short producerEpoch,
                                                   boolean supportsEpochBump) {
        return logFor(groupId).startTransactionVerification(producerId, producerEpoch, NO_SEQUENCE,
                supportsEpochBump);
    }

    /**
     * Writes a group's commits made in a transaction (TxnOffsetCommit) as one transactional batch of the producer,
     * as Kafka's coordinator writes them, so that the marker ending the transaction decides whether they count;
     * otherwise as {@link #writeCommits}. The log refuses it INVALID_TXN_STATE if it would open the producer's
     * transaction on the partition without {@code guard} still held there (the transaction ended since it was
     * verified), INVALID_PRODUCER_EPOCH for an epoch older than the producer's there.
     *
     * @param guard from {@link #startTransactionVerification}; null when transaction verification is off
     */
    CompletableFuture<Long> writeTransactionalCommits(String groupId, long producerId, short producerEpoch,
                                                      VerificationGuard guard,
                                                      Map<TopicPartition, OffsetStore.CommittedOffset> offsets,
                                                      long commitTimestamp) {
        return append(groupId, new Producer(producerId, producerEpoch, guard), () -> commitEntries(groupId, offsets,
                commitTimestamp));
    }

    private static List<Entry> commitEntries(String groupId, Map<TopicPartition, OffsetStore.CommittedOffset> offsets,
                                             long commitTimestamp) {
        List<Entry> entries = new ArrayList<>();
        offsets.forEach((partition, offset) -> entries.add(new Entry(key(groupId, partition),
                value(offset, commitTimestamp))));
        return entries;
    }

    /** Writes a group's metadata as one record, as {@link #writeCommits} writes commits. */
    CompletableFuture<Long> writeGroup(String groupId, GroupMetadataRecord.StoredGroup group) {
        return append(groupId, () -> List.of(new Entry(GroupMetadataRecord.key(groupId),
                GroupMetadataRecord.value(group))));
    }

    /**
     * Writes a group's records that differ from {@code written} (tombstones for those gone) to get to {@code now},
     * as one batch ({@link ConsumerGroupRecords#diff}); -1 at once if none do, a failed future if refused at once.
     */
    CompletableFuture<Long> writeChanges(String groupId, Map<ByteBuffer, byte[]> written,
                                         Map<ByteBuffer, byte[]> now) {
        return writeIfAny(groupId, ConsumerGroupRecords.diff(written, now));
    }

    /** Writes these records as {@link #writeRecords} does (none: nothing); a write refused at once fails. */
    CompletableFuture<Long> writeIfAny(String groupId, Map<ByteBuffer, byte[]> changes) {
        try {
            return writeRecords(groupId, changes);
        } catch (LogException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Appends a consumer or share group's changed records as one batch, as Kafka's coordinator runtime appends a
     * write: once appended, {@code appended} runs (the records become the group's last written ones, whether or not
     * they come to count); refused at the append, {@code refused} runs instead (the group rolled back to its last
     * written records) and the write fails with the log's error. The caller holds the group's lock.
     */
    CompletableFuture<Long> appendOrRollBack(String groupId, Map<ByteBuffer, byte[]> changes, Runnable appended,
                                             Runnable refused) {
        CompletableFuture<Long> counted;
        try {
            counted = writeRecords(groupId, changes);
        } catch (LogException e) {
            refused.run();
            return CompletableFuture.failedFuture(e);
        }
        appended.run();
        return counted;
    }

    /** Writes a consumer group's records ({@link ConsumerGroupRecords}; a null value deletes) as one batch. */
    CompletableFuture<Long> writeRecords(String groupId, Map<ByteBuffer, byte[]> records) {
        return append(groupId, () -> {
            List<Entry> entries = new ArrayList<>();
            records.forEach((key, value) -> entries.add(new Entry(bytes(key), value)));
            return entries;
        });
    }

    private static byte[] bytes(ByteBuffer key) {
        byte[] keyBytes = new byte[key.remaining()];
        key.duplicate().get(keyBytes);
        return keyBytes;
    }

    /**
     * Writes one batch of tombstones deleting a group: one for each of these commits, one more with the legacy key
     * for each of {@code legacyKeyed} (see {@link #writeCommitDeletion}), then one for each key of the group's own
     * records ({@code groupKeys}: a classic group's metadata, a consumer group's records), as {@link #writeCommits}
     * writes commits.
     */
    CompletableFuture<Long> writeGroupDeletion(String groupId, Collection<TopicPartition> partitions,
                                               Collection<TopicPartition> legacyKeyed,
                                               Collection<ByteBuffer> groupKeys) {
        return append(groupId, () -> {
            List<Entry> entries = commitTombstones(groupId, partitions, legacyKeyed);
            groupKeys.forEach(key -> entries.add(new Entry(bytes(key), null)));
            return entries;
        });
    }

    /**
     * Writes one batch of tombstones deleting these commits of a group (OffsetDelete, expiry), as
     * {@link #writeCommits}. A commit whose record has a legacy key gets a tombstone with that key too: compaction
     * keeps the last record of each key, and once it has dropped the new key's tombstone, the old record would
     * otherwise come back on the next replay.
     */
    CompletableFuture<Long> writeCommitDeletion(String groupId, Collection<TopicPartition> partitions,
                                                Collection<TopicPartition> legacyKeyed) {
        return append(groupId, () -> commitTombstones(groupId, partitions, legacyKeyed));
    }

    private static List<Entry> commitTombstones(String groupId, Collection<TopicPartition> partitions,
                                                Collection<TopicPartition> legacyKeyed) {
        List<Entry> entries = new ArrayList<>();
        legacyKeyed.forEach(partition -> entries.add(new Entry(legacyKey(groupId, partition), null)));
        partitions.forEach(partition -> entries.add(new Entry(key(groupId, partition), null)));
        return entries;
    }

    /**
     * Encodes and appends one batch; a record that cannot be encoded (a string too long for its int16 length) is
     * refused as a LogException, as the log's own refusals are.
     */
    private CompletableFuture<Long> append(String groupId, Supplier<List<Entry>> encode) {
        return append(groupId, null, encode);
    }

    /** As {@link #append(String, Supplier)}, as a transactional batch of {@code producer} unless it is null. */
    private CompletableFuture<Long> append(String groupId, Producer producer, Supplier<List<Entry>> encode) {
        List<Entry> entries;
        try {
            entries = encode.get();
        } catch (IllegalArgumentException e) {
            throw new LogException(Errors.UNKNOWN_SERVER_ERROR, "cannot store a record of group " + groupId + ": "
                    + e.getMessage());
        }
        if (entries.isEmpty()) {
            // Nothing to write (a change that changed nothing, or deleting a group none of whose writes counted):
            // a batch of no records is one the log refuses INVALID_RECORD.
            return CompletableFuture.completedFuture(NOTHING_WRITTEN);
        }
        long now = clock.wallClockMs();
        RecordBatchBuilder builder = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, now);
        if (producer != null) {
            builder.producer(producer.id(), producer.epoch(), COORDINATOR_SEQUENCE).transactional(true);
        }
        for (Entry entry : entries) {
            builder.append(now, entry.key(), entry.value(), List.of());
        }
        ByteBuf batch = builder.build();
        try {
            return appender.append(logFor(groupId), batch, producer == null ? null : producer.guard());
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
            replay(index, log.get(), sink, groups);
        }
    }

    private static void replay(int index, PartitionLog log, ReplaySink sink, GroupSink groups) {
        LogReplay.replay(log, (batch, record) -> {
            long producerId = batch.isTransactional() ? batch.producerId() : NO_PRODUCER_ID;
            if (batch.isControl()) {
                applyMarker(index, producerId, record, sink);
            } else {
                applyReadable(log, record, producerId, sink, groups);
            }
        });
    }

    /**
     * Applies a record, or skips it with a log line if it cannot be read (a version this broker does not know, a
     * truncated field): one bad record must not keep the partition's other groups from loading.
     */
    private static void applyReadable(PartitionLog log, Record record, long producerId, ReplaySink sink,
                                      GroupSink groups) {
        try {
            apply(record, producerId, sink, groups);
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            LOG.warn("Skipped the unreadable record at offset {} of {}: {}", record.offset(), log.topicPartition(),
                    e.toString());
        }
    }

    /**
     * A control record: Kafka's key is a version (0) and a type, ABORT (0) or COMMIT (1); other types (none is
     * written to this topic) are not transaction markers.
     */
    private static void applyMarker(int index, long producerId, Record record, ReplaySink sink) {
        ByteBuf key = record.key();
        if (key == null || key.readableBytes() < 2 * Short.BYTES) {
            return;
        }
        key.readShort();
        short type = key.readShort();
        for (TransactionResult result : TransactionResult.values()) {
            if (result.controlType() == type) {
                sink.transactionEnded(index, producerId, result);
            }
        }
    }

    private static void apply(Record record, long producerId, ReplaySink sink, GroupSink groups) {
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
        if (ConsumerGroupRecords.isConsumerGroupRecord(keyVersion)) {
            groups.consumerGroupRecord(keyVersion, key, record.value());
            return;
        }
        if (ShareGroupRecords.isShareGroupRecord(keyVersion)) {
            groups.shareGroupRecord(keyVersion, key, record.value());
            return;
        }
        if (StreamsGroupRecords.isStreamsGroupRecord(keyVersion)) {
            groups.streamsGroupRecord(keyVersion, key, record.value());
            return;
        }
        if (keyVersion != OFFSET_KEY_VERSION && keyVersion != 0) {
            return; // not a record this broker wrote
        }
        boolean kafkaLayout = parsesWhole(key.duplicate());
        String groupId = kafkaLayout ? GroupMetadataRecord.readString(key) : readIntString(key);
        String topic = kafkaLayout ? GroupMetadataRecord.readString(key) : readIntString(key);
        TopicPartition partition = new TopicPartition(topic, key.readInt());
        ByteBuf value = record.value();
        if (value == null) {
            sink.deleted(groupId, partition, record.offset(), !kafkaLayout);
            return;
        }
        if (!kafkaLayout) {
            long committed = value.readLong();
            int leaderEpoch = value.readInt();
            String metadata = value.readBoolean() ? readIntString(value) : null;
            sink.committed(groupId, partition, new OffsetStore.CommittedOffset(committed, leaderEpoch, metadata),
                    record.offset(), record.timestamp(), true, producerId);
            return;
        }
        short version = value.readShort();
        if (version < 0 || version > OFFSET_VALUE_VERSION) {
            throw new IllegalArgumentException("OffsetCommitValue version " + version + " of " + groupId + " for "
                    + partition + " is not one this broker reads (0 to " + OFFSET_VALUE_VERSION + ")");
        }
        boolean flexible = version >= FIRST_FLEXIBLE_OFFSET_VALUE_VERSION;
        long committed = value.readLong();
        int leaderEpoch = version >= 3 ? value.readInt() : -1;
        String metadata = flexible ? ConsumerGroupRecords.readCompactString(value)
                : GroupMetadataRecord.readString(value);
        long commitTimestamp = value.readLong();
        long expireTimestamp = version == OFFSET_VALUE_WITH_EXPIRY_VERSION ? value.readLong()
                : OffsetStore.CommittedOffset.NO_EXPIRY;
        UUID topicId = flexible ? readTopicIdTag(value) : null;
        sink.committed(groupId, partition, new OffsetStore.CommittedOffset(committed, leaderEpoch, metadata, topicId,
                expireTimestamp), record.offset(), commitTimestamp, false, producerId);
    }

    /** Whether the rest of a commit key (after its type) is Kafka's: two int16-length strings and an int32, exactly. */
    private static boolean parsesWhole(ByteBuf key) {
        for (int i = 0; i < 2; i++) {
            if (key.readableBytes() < Short.BYTES) {
                return false;
            }
            int length = key.readShort();
            if (length < 0 || key.readableBytes() < length) {
                return false;
            }
            key.skipBytes(length);
        }
        return key.readableBytes() == Integer.BYTES;
    }

    private PartitionLog logFor(String groupId) {
        Optional<TopicMetadata> existing = topics.get(NAME);
        if (existing.isEmpty() && !singleNode) {
            throw new LogException(Errors.NOT_LEADER_OR_FOLLOWER, NAME + " is not hosted here");
        }
        TopicMetadata topic = existing.orElseGet(() -> {
            TopicRegistry.Outcome created = topics.autoCreate(NAME);
            // A FindCoordinator's creation may have come first: then it is there to use.
            return topics.get(NAME).orElseThrow(() -> new LogException(
                    created.error() == null ? Errors.COORDINATOR_NOT_AVAILABLE : created.error(),
                    "cannot create " + NAME + ": " + created.message()));
        });
        int index = partitionFor(groupId);
        return topics.partitionLog(topic, index).orElseThrow(() -> new LogException(
                Errors.COORDINATOR_NOT_AVAILABLE, NAME + "-" + index + " has no log"));
    }

    static byte[] key(String groupId, TopicPartition partition) {
        ByteBuf key = Unpooled.buffer();
        key.writeShort(OFFSET_KEY_VERSION);
        GroupMetadataRecord.writeString(key, groupId);
        GroupMetadataRecord.writeString(key, partition.topic());
        key.writeInt(partition.partition());
        return bytes(key);
    }

    /** The commit key earlier versions of minibroker wrote: the same fields, strings with int32 lengths. */
    static byte[] legacyKey(String groupId, TopicPartition partition) {
        ByteBuf key = Unpooled.buffer();
        key.writeShort(OFFSET_KEY_VERSION);
        writeIntString(key, groupId);
        writeIntString(key, partition.topic());
        key.writeInt(partition.partition());
        return bytes(key);
    }

    /**
     * OffsetCommitValue as Kafka 4.3.1's GroupCoordinatorRecordHelpers writes it: v4 (the topic id as tagged field
     * 0 when the commit named one), or v1 for a commit with an expiry time of its own, which only v1 holds (without
     * the leader epoch, which v1 lacks). No metadata is stored as the empty string, as Kafka stores it.
     */
    static byte[] value(OffsetStore.CommittedOffset offset, long commitTimestamp) {
        ByteBuf value = Unpooled.buffer();
        String metadata = offset.metadata() == null ? "" : offset.metadata();
        if (offset.expireTimestamp() != OffsetStore.CommittedOffset.NO_EXPIRY) {
            value.writeShort(OFFSET_VALUE_WITH_EXPIRY_VERSION);
            value.writeLong(offset.offset());
            GroupMetadataRecord.writeString(value, metadata);
            value.writeLong(commitTimestamp);
            value.writeLong(offset.expireTimestamp());
            return bytes(value);
        }
        value.writeShort(OFFSET_VALUE_VERSION);
        value.writeLong(offset.offset());
        value.writeInt(offset.leaderEpoch());
        ConsumerGroupRecords.writeCompactString(value, metadata);
        value.writeLong(commitTimestamp);
        UUID topicId = offset.topicId();
        if (topicId == null || topicId.equals(ZERO_UUID)) { // a tagged field at its default is not written
            Wire.writeUnsignedVarint(value, 0);
        } else {
            Wire.writeUnsignedVarint(value, 1);
            Wire.writeUnsignedVarint(value, TOPIC_ID_TAG);
            Wire.writeUnsignedVarint(value, 16);
            Wire.writeUuid(value, topicId);
        }
        return bytes(value);
    }

    /** The tagged fields ending a flexible OffsetCommitValue: the topic id (tag 0) if there, others skipped. */
    private static UUID readTopicIdTag(ByteBuf value) {
        UUID topicId = null;
        int fields = Wire.readUnsignedVarint(value);
        for (int i = 0; i < fields; i++) {
            int tag = Wire.readUnsignedVarint(value);
            int size = Wire.readUnsignedVarint(value);
            if (tag == TOPIC_ID_TAG && size == 16) {
                topicId = Wire.readUuid(value);
            } else {
                value.skipBytes(size);
            }
        }
        return topicId == null || topicId.equals(ZERO_UUID) ? null : topicId;
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    /** A string of the commit records earlier versions of minibroker wrote: an int32 length, then UTF-8. */
    private static void writeIntString(ByteBuf buf, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        buf.writeInt(utf8.length);
        buf.writeBytes(utf8);
    }

    private static String readIntString(ByteBuf buf) {
        int length = buf.readInt();
        return buf.readCharSequence(length, StandardCharsets.UTF_8).toString();
    }
}
