package io.minibroker.broker.sharestate;

import io.minibroker.broker.share.RecordState;
import io.minibroker.broker.share.SharePartitionKey;
import io.minibroker.broker.share.ShareStateSnapshot;
import io.minibroker.broker.topic.TopicIds;
import io.netty.buffer.Unpooled;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotKey;
import org.apache.kafka.coordinator.share.generated.ShareSnapshotValue;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The records in {@code __share_group_state} against Kafka's own generated classes, both ways. */
class ShareStateRecordsTest {

    private static final UUID TOPIC = UUID.fromString("6b7e3c52-8d3f-4a51-9a0e-2a4c1d9b7f10");
    private static final SharePartitionKey KEY = new SharePartitionKey("group-é", TOPIC, 3);
    private static final ShareStateSnapshot SNAPSHOT = new ShareStateSnapshot(10, List.of(
            new ShareStateSnapshot.StateBatch(10, 12, RecordState.AVAILABLE, 2),
            new ShareStateSnapshot.StateBatch(13, 13, RecordState.ARCHIVED, 5),
            new ShareStateSnapshot.StateBatch(14, 20, RecordState.ACKNOWLEDGED, 1)));

    @Test
    void kafkaReadsOurSnapshotRecord() {
        ByteBuffer key = ByteBuffer.wrap(ShareStateRecords.key(KEY));
        assertThat(key.getShort()).as("record type").isEqualTo((short) 0);
        ShareSnapshotKey kafkaKey = new ShareSnapshotKey(new ByteBufferAccessor(key), (short) 0);
        assertThat(kafkaKey.groupId()).isEqualTo("group-é");
        assertThat(kafkaKey.topicId()).isEqualTo(Uuid.fromString(TopicIds.toText(TOPIC)));
        assertThat(kafkaKey.partition()).isEqualTo(3);
        assertThat(key.hasRemaining()).isFalse();

        ByteBuffer value = ByteBuffer.wrap(ShareStateRecords.value(
                new ShareStateRecords.Stored(SNAPSHOT, 4, 1, 7, 1000L, -1), 2000L));
        assertThat(value.getShort()).as("value version").isZero();
        ShareSnapshotValue kafkaValue = new ShareSnapshotValue(new ByteBufferAccessor(value), (short) 0);
        assertThat(value.hasRemaining()).isFalse();
        assertThat(kafkaValue.snapshotEpoch()).isEqualTo(4);
        assertThat(kafkaValue.stateEpoch()).isEqualTo(1);
        assertThat(kafkaValue.leaderEpoch()).isEqualTo(7);
        assertThat(kafkaValue.startOffset()).isEqualTo(10);
        assertThat(kafkaValue.deliveryCompleteCount()).isEqualTo(-1);
        assertThat(kafkaValue.createTimestamp()).isEqualTo(1000L);
        assertThat(kafkaValue.writeTimestamp()).isEqualTo(2000L);
        assertThat(kafkaValue.stateBatches()).extracting(b -> List.of(b.firstOffset(), b.lastOffset(),
                (long) b.deliveryState(), (long) b.deliveryCount()))
                .containsExactly(List.of(10L, 12L, 0L, 2L), List.of(13L, 13L, 4L, 5L), List.of(14L, 20L, 2L, 1L));
    }

    @Test
    void kafkaReadsOurDeliveryCompleteCount() {
        ByteBuffer value = ByteBuffer.wrap(ShareStateRecords.value(
                new ShareStateRecords.Stored(SNAPSHOT, 4, 1, 7, 1000L, 8), 2000L));
        value.getShort();
        ShareSnapshotValue kafkaValue = new ShareSnapshotValue(new ByteBufferAccessor(value), (short) 0);
        assertThat(value.hasRemaining()).isFalse();
        assertThat(kafkaValue.deliveryCompleteCount()).isEqualTo(8);
        assertThat(kafkaValue.stateBatches()).hasSize(3);
    }

    @Test
    void aValueReadsBackWithKafkasTaggedDeliveryCompleteCount() {
        byte[] ours = ShareStateRecords.value(new ShareStateRecords.Stored(SNAPSHOT, 4, 1, 7, 1000L, -1), 2000L);
        // Kafka 4.2+ writes DeliveryCompleteCount (tag 0) in the value's tagged fields when set: one field, 4 bytes.
        ByteBuffer tagged = ByteBuffer.allocate(ours.length + 6).put(ours, 0, ours.length - 1)
                .put(new byte[] {1, 0, 4}).putInt(3);
        tagged.flip();
        for (ByteBuffer value : List.of(ByteBuffer.wrap(ours), tagged)) {
            ShareStateRecords.Stored stored = ShareStateRecords.readValue(Unpooled.wrappedBuffer(value));
            assertThat(stored.snapshot()).isEqualTo(SNAPSHOT);
            assertThat(List.of(stored.snapshotEpoch(), stored.stateEpoch(), stored.leaderEpoch()))
                    .containsExactly(4, 1, 7);
            assertThat(stored.createTimestamp()).isEqualTo(1000L);
            assertThat(stored.deliveryCompleteCount()).isEqualTo(value == tagged ? 3 : -1);
        }
        assertThat(ShareStateRecords.readKey(Unpooled.wrappedBuffer(ShareStateRecords.key(KEY)))).isEqualTo(KEY);
    }

    @Test
    void aShareUpdateKeyIsNotASnapshot() {
        assertThat(ShareStateRecords.readKey(Unpooled.wrappedBuffer(new byte[] {0, 1, 0, 1, 'g'}))).isNull();
    }
}
