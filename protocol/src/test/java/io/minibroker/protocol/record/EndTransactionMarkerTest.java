package io.minibroker.protocol.record;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A transaction marker's control batch in Kafka's layout, and read back. */
class EndTransactionMarkerTest {

    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    @Test
    void aMarkerIsAControlBatchWithKafkasKeyAndValue() {
        ByteBuf bytes = new EndTransactionMarker(EndTransactionMarker.ABORT, 0x01020304).toBatch(ALLOC, 77, (short) 5, 1234L);
        try {
            RecordBatch batch = RecordBatch.wrap(bytes);
            batch.ensureValid();
            assertThat(batch.isControl()).isTrue();
            assertThat(batch.isTransactional()).isTrue();
            assertThat(batch.producerId()).isEqualTo(77);
            assertThat(batch.producerEpoch()).isEqualTo((short) 5);
            assertThat(batch.baseSequence()).isEqualTo(-1);
            assertThat(batch.recordCount()).isEqualTo(1);
            try (RecordIterator records = batch.records(ALLOC)) {
                Record record = records.next();
                assertThat(ByteBufUtil.getBytes(record.key())).containsExactly(0, 0, 0, 0); // version 0, ABORT
                assertThat(ByteBufUtil.getBytes(record.value())).containsExactly(0, 0, 1, 2, 3, 4); // version 0, epoch
                assertThat(record.timestamp()).isEqualTo(1234L);
            }
            assertThat(EndTransactionMarker.read(batch, ALLOC))
                    .isEqualTo(new EndTransactionMarker(EndTransactionMarker.ABORT, 0x01020304));
        } finally {
            bytes.release();
        }
    }

    @Test
    void aCommitReadsBackAndADataBatchHasNoMarker() {
        ByteBuf commit = new EndTransactionMarker(EndTransactionMarker.COMMIT, 3).toBatch(ALLOC, 1, (short) 0, 0L);
        ByteBuf data = new RecordBatchBuilder(ALLOC, CompressionType.NONE, 0, 0L).producer(1, (short) 0, 0)
                .transactional(true).append(0L, new byte[] {0, 0, 0, 1}, null, java.util.List.of()).build();
        try {
            assertThat(EndTransactionMarker.read(RecordBatch.wrap(commit), ALLOC).isCommit()).isTrue();
            assertThat(EndTransactionMarker.read(RecordBatch.wrap(data), ALLOC)).isNull();
        } finally {
            commit.release();
            data.release();
        }
    }
}
