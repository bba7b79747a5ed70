package io.minibroker.broker.group;

import io.minibroker.broker.produce.CoordinatorAppender;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.broker.transaction.TransactionResult;
import io.minibroker.broker.topic.TopicRegistry;
import io.minibroker.protocol.record.CompressionType;
import io.minibroker.protocol.record.Record;
import io.minibroker.protocol.record.RecordBatchBuilder;
import io.minibroker.protocol.record.RecordBatches;
import io.minibroker.protocol.record.RecordIterator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.group.generated.OffsetCommitValue;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replaying one partition of {@code __consumer_offsets} that holds commits, group metadata and a deleted group's
 * tombstones: the last record per key wins, commits and groups each to their own sink.
 */
class OffsetsTopicReplayTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path logDir;
    private TopicRegistry topics;
    private OffsetsTopic offsetsTopic;

    @BeforeEach
    void open() throws Exception {
        // One partition, which the tests read: the topic is created with offsets.topic.num.partitions.
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString(), "offsets.topic.num.partitions", "1"));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        offsetsTopic = new OffsetsTopic(topics, 1, CoordinatorAppender.SINGLE_NODE, true, BrokerClock.system());
    }

    @AfterEach
    void close() throws Exception {
        topics.close();
    }

    private static GroupMetadataRecord.StoredGroup stable(int generation, String member) {
        return new GroupMetadataRecord.StoredGroup("consumer", generation, "range", member, 1L, List.of(
                new GroupMetadataRecord.StoredMember(member, null, "client", "/h", 60_000, 10_000,
                        new byte[]{1}, new byte[]{(byte) generation})));
    }

    private static Map<TopicPartition, OffsetStore.CommittedOffset> commit(long offset) {
        return Map.of(ORDERS_0, new OffsetStore.CommittedOffset(offset, -1, ""));
    }

    @Test
    void theLastRecordOfEachKeyWinsAndADeletedGroupIsGone() throws Exception {
        offsetsTopic.writeGroup("kept", stable(1, "a")).get();
        offsetsTopic.writeCommits("kept", commit(10), T0).get();
        offsetsTopic.writeGroup("deleted", stable(3, "b")).get();
        offsetsTopic.writeCommits("deleted", commit(20), T0).get();
        offsetsTopic.writeGroup("kept", stable(2, "c")).get();
        offsetsTopic.writeCommits("kept", commit(11), T0).get();
        offsetsTopic.writeGroupDeletion("deleted", List.of(ORDERS_0), List.of(),
                List.of(ByteBuffer.wrap(GroupMetadataRecord.key("deleted")))).get();

        OffsetStore offsets = new OffsetStore(offsetsTopic);
        Map<String, GroupMetadataRecord.StoredGroup> groups = new HashMap<>();
        offsets.loadPartition(0, (groupId, group) -> {
            if (group == null) {
                groups.remove(groupId);
            } else {
                groups.put(groupId, group);
            }
        });

        assertThat(groups).containsOnlyKeys("kept");
        assertThat(groups.get("kept").generation()).isEqualTo(2);
        assertThat(groups.get("kept").leader()).isEqualTo("c");
        assertThat(groups.get("kept").members()).singleElement()
                .satisfies(member -> assertThat(member.assignment()).containsExactly(2));
        assertThat(offsets.all("kept")).containsExactly(Map.entry(ORDERS_0, new OffsetStore.CommittedOffset(11, -1, "")));
        assertThat(offsets.all("deleted")).isEmpty();
    }

    @Test
    void aCommitIsStoredInKafkasOffsetCommitKeyAndValueV4() throws Exception {
        offsetsTopic.writeCommits("g", Map.of(ORDERS_0, new OffsetStore.CommittedOffset(42, 7, null)), T0).get();

        Record record = onlyRecord();
        ByteBuf expectedKey = Unpooled.buffer().writeShort(1).writeShort(1).writeBytes(bytes("g"))
                .writeShort(6).writeBytes(bytes("orders")).writeInt(0);
        assertThat(ByteBufUtil.getBytes(record.key())).isEqualTo(ByteBufUtil.getBytes(expectedKey));
        ByteBuf expectedValue = Unpooled.buffer().writeShort(4).writeLong(42).writeInt(7)
                .writeByte(1) // no metadata: the empty string, as Kafka stores it (a compact string's length + 1)
                .writeLong(T0)
                .writeByte(0); // no tagged fields: no topic id was named
        assertThat(ByteBufUtil.getBytes(record.value())).isEqualTo(ByteBufUtil.getBytes(expectedValue));
    }

    /**
     * As Kafka 4.3.1's generated OffsetCommitValue reads what its GroupCoordinatorRecordHelpers writes: v4 with the
     * topic id an OffsetCommit v10 named, v1 with the expiry time an OffsetCommit v2-v4's retention gave (v1 has no
     * leader epoch), each read whole; and each read back here as it was committed.
     */
    @Test
    void aCommitsTopicIdAndExpiryAreWrittenAsKafkaWritesThemAndReadBack() throws Exception {
        UUID topicId = new UUID(0x1234, 0x5678);
        OffsetStore.CommittedOffset named = new OffsetStore.CommittedOffset(42, 7, "m", topicId,
                OffsetStore.CommittedOffset.NO_EXPIRY);
        OffsetStore.CommittedOffset expiring = new OffsetStore.CommittedOffset(43, 8, "", null, T0 + 60_000);

        assertThat(asKafkaReadsIt(OffsetsTopic.value(named, T0), (short) 4)).isEqualTo(new OffsetCommitValue()
                .setOffset(42).setLeaderEpoch(7).setMetadata("m").setCommitTimestamp(T0)
                .setTopicId(new Uuid(0x1234, 0x5678)));
        assertThat(asKafkaReadsIt(OffsetsTopic.value(expiring, T0), (short) 1)).isEqualTo(new OffsetCommitValue()
                .setOffset(43).setMetadata("").setCommitTimestamp(T0).setExpireTimestamp(T0 + 60_000));

        offsetsTopic.writeCommits("named", Map.of(ORDERS_0, named), T0).get();
        offsetsTopic.writeCommits("expiring", Map.of(ORDERS_0, expiring), T0).get();
        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsets.loadPartition(0, (groupId, group) -> { });
        assertThat(offsets.all("named")).containsExactly(Map.entry(ORDERS_0, named));
        assertThat(offsets.all("expiring")).containsExactly(Map.entry(ORDERS_0,
                new OffsetStore.CommittedOffset(43, -1, "", null, T0 + 60_000))); // v1 keeps no leader epoch
        assertThat(offsets.settledCommits("expiring")).containsExactly(Map.entry(ORDERS_0,
                new OffsetStore.SettledCommit(T0, T0 + 60_000)));
    }

    @Test
    void commitsWrittenByEarlierVersionsAreReadWithTheirRecordsTimeAsTheCommitTime() throws Exception {
        offsetsTopic.writeGroup("other", stable(1, "a")).get(); // creates the topic
        ByteBuf legacyValue = Unpooled.buffer().writeLong(17).writeInt(2).writeBoolean(true).writeInt(4)
                .writeBytes(bytes("meta"));
        appendRaw(legacyKey("old"), ByteBufUtil.getBytes(legacyValue));

        Map<String, Long> commitTimes = new HashMap<>();
        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsetsTopic.replayPartition(0, new OffsetsTopic.ReplaySink() {
            @Override
            public void committed(String groupId, TopicPartition partition, OffsetStore.CommittedOffset offset,
                                  long logOffset, long commitTimestamp, boolean legacyKey, long producerId) {
                offsets.committed(groupId, partition, offset, logOffset, commitTimestamp, legacyKey, producerId);
                commitTimes.put(groupId, commitTimestamp);
            }

            @Override
            public void deleted(String groupId, TopicPartition partition, long logOffset, boolean legacyKey) {
                offsets.deleted(groupId, partition, logOffset, legacyKey);
            }

            @Override
            public void transactionEnded(int index, long producerId, TransactionResult result) {
                offsets.transactionEnded(index, producerId, result);
            }
        }, (groupId, group) -> { });

        assertThat(offsets.all("old")).containsExactly(Map.entry(ORDERS_0, new OffsetStore.CommittedOffset(17, 2, "meta")));
        assertThat(commitTimes).containsEntry("old", T0);
    }

    /**
     * Compaction keeps each key's last record: a legacy commit is only gone for good if its own key gets a
     * tombstone; one under the new key alone would be dropped after delete.retention.ms and the old commit revived.
     */
    @Test
    void deletingACommitWithALegacyKeyTombstonesThatKeyToo() throws Exception {
        offsetsTopic.writeGroup("other", stable(1, "a")).get();
        appendRaw(legacyKey("old"), legacyValue(17));
        appendRaw(legacyKey("gone"), legacyValue(5));
        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsets.loadPartition(0, (groupId, group) -> { });
        long at = offsets.write("old", commit(18), T0).get(); // the new layout supersedes it; its record stays
        offsets.apply("old", commit(18), at, T0);

        offsets.deleteCommits("old", List.of(ORDERS_0)).get();
        offsets.deleteGroup("gone").get();

        Map<String, byte[]> lastValueByKey = lastValueByKey();
        assertThat(lastValueByKey).containsKey(ByteBufUtil.hexDump(legacyKey("old")))
                .containsKey(ByteBufUtil.hexDump(legacyKey("gone")));
        assertThat(lastValueByKey.get(ByteBufUtil.hexDump(legacyKey("old")))).isNull();
        assertThat(lastValueByKey.get(ByteBufUtil.hexDump(legacyKey("gone")))).isNull();
        assertThat(lastValueByKey.get(ByteBufUtil.hexDump(OffsetsTopic.key("old", ORDERS_0)))).isNull();
    }

    @Test
    void aCommitWhoseOnlyRecordLeftIsItsLegacyKeyIsStillTombstonedWhenItsGroupIsDeleted() throws Exception {
        offsetsTopic.writeGroup("other", stable(1, "a")).get();
        appendRaw(legacyKey("old"), legacyValue(17));
        offsetsTopic.writeCommitDeletion("old", List.of(ORDERS_0), List.of()).get(); // new key only
        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsets.loadPartition(0, (groupId, group) -> { });
        assertThat(offsets.all("old")).isEmpty();

        offsets.deleteGroup("old").get();

        assertThat(lastValueByKey().get(ByteBufUtil.hexDump(legacyKey("old")))).isNull();
    }

    @Test
    void anUnreadableRecordIsSkippedAndTheRestOfThePartitionLoads() throws Exception {
        offsetsTopic.writeCommits("before", commit(1), T0).get();
        byte[] futureValue = ByteBufUtil.getBytes(Unpooled.buffer().writeShort(9).writeLong(2));
        appendRaw(OffsetsTopic.key("bad", ORDERS_0), futureValue);
        appendRaw(OffsetsTopic.key("cut", ORDERS_0), new byte[]{0, 3, 0, 0}); // v3, cut short
        offsetsTopic.writeCommits("after", commit(3), T0).get();

        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsets.loadPartition(0, (groupId, group) -> { });

        assertThat(offsets.all("before")).containsKey(ORDERS_0);
        assertThat(offsets.all("after")).containsKey(ORDERS_0);
        assertThat(offsets.all("bad")).isEmpty();
        assertThat(offsets.all("cut")).isEmpty();
    }

    /** Values of versions 0 to 2 lack the leader epoch; version 1 has an expire timestamp after the commit's, kept. */
    @Test
    void olderOffsetCommitValueVersionsAreRead() throws Exception {
        offsetsTopic.writeGroup("other", stable(1, "a")).get();
        appendRaw(OffsetsTopic.key("v0", ORDERS_0), ByteBufUtil.getBytes(Unpooled.buffer().writeShort(0)
                .writeLong(10).writeShort(1).writeBytes(bytes("m")).writeLong(T0)));
        appendRaw(OffsetsTopic.key("v1", ORDERS_0), ByteBufUtil.getBytes(Unpooled.buffer().writeShort(1)
                .writeLong(11).writeShort(0).writeLong(T0 + 1).writeLong(T0 + 99)));
        appendRaw(OffsetsTopic.key("v2", ORDERS_0), ByteBufUtil.getBytes(Unpooled.buffer().writeShort(2)
                .writeLong(12).writeShort(0).writeLong(T0 + 2)));
        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsets.loadPartition(0, (groupId, group) -> { });

        assertThat(offsets.all("v0")).containsExactly(Map.entry(ORDERS_0, new OffsetStore.CommittedOffset(10, -1, "m")));
        assertThat(offsets.all("v1")).containsExactly(Map.entry(ORDERS_0,
                new OffsetStore.CommittedOffset(11, -1, "", null, T0 + 99)));
        assertThat(offsets.all("v2")).containsExactly(Map.entry(ORDERS_0, new OffsetStore.CommittedOffset(12, -1, "")));
        assertThat(offsets.settledCommits("v1")).containsExactly(Map.entry(ORDERS_0,
                new OffsetStore.SettledCommit(T0 + 1, T0 + 99)));
    }

    private static byte[] legacyKey(String groupId) {
        ByteBuf key = Unpooled.buffer().writeShort(1).writeInt(groupId.length()).writeBytes(bytes(groupId))
                .writeInt(6).writeBytes(bytes("orders")).writeInt(0);
        byte[] expected = ByteBufUtil.getBytes(key);
        assertThat(OffsetsTopic.legacyKey(groupId, ORDERS_0)).isEqualTo(expected);
        return expected;
    }

    private static byte[] legacyValue(long offset) {
        return ByteBufUtil.getBytes(Unpooled.buffer().writeLong(offset).writeInt(-1).writeBoolean(false));
    }

    private void appendRaw(byte[] key, byte[] value) {
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, T0)
                .append(T0, key, value, List.of()).build();
        try {
            offsetsLog().append(batch, 0);
        } finally {
            batch.release();
        }
    }

    /** Each key's last value in the log, keyed by the key's hex dump; a tombstone's value is null. */
    private Map<String, byte[]> lastValueByKey() {
        PartitionLog log = offsetsLog();
        Map<String, byte[]> last = new HashMap<>();
        ByteBuf read = log.read(0, 1 << 20, true, log.logEndOffset()).readInto(ByteBufAllocator.DEFAULT);
        try {
            RecordBatches batches = RecordBatches.of(read);
            while (batches.hasNext()) {
                try (RecordIterator records = batches.next().records(ByteBufAllocator.DEFAULT)) {
                    while (records.hasNext()) {
                        Record record = records.next();
                        last.put(ByteBufUtil.hexDump(record.key()),
                                record.value() == null ? null : ByteBufUtil.getBytes(record.value()));
                    }
                }
            }
        } finally {
            read.release();
        }
        return last;
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    /** The one record the offsets topic holds. */
    /** The value read by Kafka's OffsetCommitValue at the version it names, which must be {@code version}, whole. */
    private static OffsetCommitValue asKafkaReadsIt(byte[] value, short version) {
        ByteBuffer buffer = ByteBuffer.wrap(value);
        assertThat(buffer.getShort()).as("version").isEqualTo(version);
        OffsetCommitValue read = new OffsetCommitValue(new ByteBufferAccessor(buffer), version);
        assertThat(buffer.remaining()).as("bytes left unread").isZero();
        return read;
    }

    private Record onlyRecord() {
        PartitionLog log = offsetsLog();
        ByteBuf read = log.read(0, 1 << 20, true, log.logEndOffset()).readInto(ByteBufAllocator.DEFAULT);
        try (RecordIterator records = RecordBatches.of(read).next().records(ByteBufAllocator.DEFAULT)) {
            Record record = records.next();
            return new Record(record.offset(), record.timestamp(), record.sequence(), record.attributes(),
                    Unpooled.copiedBuffer(record.key()), Unpooled.copiedBuffer(record.value()), List.of());
        } finally {
            read.release();
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
