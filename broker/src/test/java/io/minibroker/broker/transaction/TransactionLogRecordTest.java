package io.minibroker.broker.transaction;

import io.minibroker.broker.log.TopicPartition;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bytes of {@code __transaction_state}'s records, laid out here field by field from Kafka's TransactionLogKey
 * and TransactionLogValue JSON specs (v0 fixed, v1 flexible with tagged fields 0-2), and read back.
 */
class TransactionLogRecordTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);
    private static final TopicPartition ORDERS_1 = new TopicPartition("orders", 1);

    @Test
    void theKeyIsVersion0AndTheIdAsAnInt16LengthString() {
        assertThat(TransactionLogRecord.key("tx")).containsExactly(0, 0, 0, 2, 't', 'x');
        assertThat(TransactionLogRecord.readKey(Unpooled.wrappedBuffer(TransactionLogRecord.key("payments"))))
                .isEqualTo("payments");
    }

    @Test
    void valueVersion0IsTheFixedLayout() {
        TransactionMetadata ongoing = new TransactionMetadata("tx", 42, -1, -1, (short) 3, (short) -1, 60_000,
                TransactionState.ONGOING, Set.of(ORDERS_1, ORDERS_0), 1_000, 2_000, (short) 0);
        ByteBuffer expected = ByteBuffer.allocate(64);
        expected.putShort((short) 0).putLong(42).putShort((short) 3).putInt(60_000).put((byte) 1)
                .putInt(1).putShort((short) 6).put("orders".getBytes(StandardCharsets.UTF_8)).putInt(2).putInt(0)
                .putInt(1)
                .putLong(2_000).putLong(1_000);
        assertThat(TransactionLogRecord.value(ongoing, (short) 0)).containsExactly(bytes(expected));
        assertThat(read(TransactionLogRecord.value(ongoing, (short) 0))).isEqualTo(ongoing);
    }

    @Test
    void valueVersion1IsFlexibleWithItsTaggedFieldsWhenNotDefault() {
        TransactionMetadata empty = new TransactionMetadata("tx", 42, 41, 43, (short) 0, (short) -1, 60_000,
                TransactionState.EMPTY, Set.of(), -1, 2_000, (short) 2);
        ByteBuffer expected = ByteBuffer.allocate(64);
        expected.putShort((short) 1).putLong(42).putShort((short) 0).putInt(60_000).put((byte) 0)
                .put((byte) 0) // a null compact array: Empty is written without partitions
                .putLong(2_000).putLong(-1)
                .put((byte) 3) // tagged fields
                .put((byte) 0).put((byte) 8).putLong(41)
                .put((byte) 1).put((byte) 8).putLong(43)
                .put((byte) 2).put((byte) 2).putShort((short) 2);
        assertThat(TransactionLogRecord.value(empty, (short) 1)).containsExactly(bytes(expected));
        assertThat(read(TransactionLogRecord.value(empty, (short) 1))).isEqualTo(empty);

        TransactionMetadata prepared = new TransactionMetadata("tx", 42, -1, -1, (short) 5, (short) -1, 60_000,
                TransactionState.PREPARE_COMMIT, Set.of(ORDERS_0), 1_000, 2_000, (short) 0);
        ByteBuffer withPartitions = ByteBuffer.allocate(64);
        withPartitions.putShort((short) 1).putLong(42).putShort((short) 5).putInt(60_000).put((byte) 2)
                .put((byte) 2) // one topic, as a compact length + 1
                .put((byte) 7).put("orders".getBytes(StandardCharsets.UTF_8)).put((byte) 2).putInt(0).put((byte) 0)
                .putLong(2_000).putLong(1_000)
                .put((byte) 0); // every tagged field at its default
        assertThat(TransactionLogRecord.value(prepared, (short) 1)).containsExactly(bytes(withPartitions));
        assertThat(read(TransactionLogRecord.value(prepared, (short) 1))).isEqualTo(prepared);
    }

    @Test
    void kafkaWritesVersion1FromTransactionVersion1() {
        assertThat(TransactionLogRecord.valueVersion((short) 0)).isZero();
        assertThat(TransactionLogRecord.valueVersion((short) 1)).isEqualTo((short) 1);
        assertThat(TransactionLogRecord.valueVersion((short) 2)).isEqualTo((short) 1);
    }

    private static TransactionMetadata read(byte[] value) {
        return TransactionLogRecord.readValue("tx", Unpooled.wrappedBuffer(value));
    }

    private static byte[] bytes(ByteBuffer buffer) {
        buffer.flip();
        byte[] out = new byte[buffer.remaining()];
        buffer.get(out);
        return out;
    }
}
