package io.minibroker.broker.group;

import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

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
        BrokerConfig config = BrokerConfig.of(Map.of("log.dir", logDir.toString()));
        topics = TopicRegistry.open(config, Clock.systemUTC());
        offsetsTopic = new OffsetsTopic(topics, 1, Map.of(), OffsetsAppender.SINGLE_NODE, true);
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
        offsetsTopic.writeGroupDeletion("deleted", List.of(ORDERS_0)).get();

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
    void aCommitIsStoredInKafkasOffsetCommitKeyAndValueV3() throws Exception {
        offsetsTopic.writeCommits("g", Map.of(ORDERS_0, new OffsetStore.CommittedOffset(42, 7, null)), T0).get();

        Record record = onlyRecord();
        ByteBuf expectedKey = Unpooled.buffer().writeShort(1).writeShort(1).writeBytes(bytes("g"))
                .writeShort(6).writeBytes(bytes("orders")).writeInt(0);
        ByteBuf expectedValue = Unpooled.buffer().writeShort(3).writeLong(42).writeInt(7)
                .writeShort(0) // no metadata: the empty string, as Kafka stores it
                .writeLong(T0);
        assertThat(ByteBufUtil.getBytes(record.key())).isEqualTo(ByteBufUtil.getBytes(expectedKey));
        assertThat(ByteBufUtil.getBytes(record.value())).isEqualTo(ByteBufUtil.getBytes(expectedValue));
    }

    @Test
    void commitsWrittenByEarlierVersionsAreReadWithTheirRecordsTimeAsTheCommitTime() throws Exception {
        offsetsTopic.writeGroup("other", stable(1, "a")).get(); // creates the topic
        ByteBuf legacyKey = Unpooled.buffer().writeShort(1).writeInt(3).writeBytes(bytes("old"))
                .writeInt(6).writeBytes(bytes("orders")).writeInt(0);
        ByteBuf legacyValue = Unpooled.buffer().writeLong(17).writeInt(2).writeBoolean(true).writeInt(4)
                .writeBytes(bytes("meta"));
        ByteBuf batch = new RecordBatchBuilder(ByteBufAllocator.DEFAULT, CompressionType.NONE, 0, T0)
                .append(T0, ByteBufUtil.getBytes(legacyKey), ByteBufUtil.getBytes(legacyValue), List.of()).build();
        try {
            offsetsLog().append(batch, 0);
        } finally {
            batch.release();
        }
        Map<String, Long> commitTimes = new HashMap<>();
        OffsetStore offsets = new OffsetStore(offsetsTopic);
        offsetsTopic.replayPartition(0, new OffsetsTopic.ReplaySink() {
            @Override
            public void committed(String groupId, TopicPartition partition, OffsetStore.CommittedOffset offset,
                                  long logOffset, long commitTimestamp) {
                offsets.committed(groupId, partition, offset, logOffset, commitTimestamp);
                commitTimes.put(groupId, commitTimestamp);
            }

            @Override
            public void deleted(String groupId, TopicPartition partition, long logOffset) {
                offsets.deleted(groupId, partition, logOffset);
            }
        }, (groupId, group) -> { });

        assertThat(offsets.all("old")).containsExactly(Map.entry(ORDERS_0, new OffsetStore.CommittedOffset(17, 2, "meta")));
        assertThat(commitTimes).containsEntry("old", T0);
    }

    private PartitionLog offsetsLog() {
        return topics.partitionLog(topics.get(OffsetsTopic.NAME).orElseThrow(), 0).orElseThrow();
    }

    /** The one record the offsets topic holds. */
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
