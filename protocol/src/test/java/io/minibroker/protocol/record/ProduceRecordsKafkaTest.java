package io.minibroker.protocol.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.ProduceRequest;
import org.junit.jupiter.api.Test;

/** Our produce-records checks give the error Kafka's own check gives, case by case. */
class ProduceRecordsKafkaTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);

    private static byte[] batch(CompressionType compression) {
        ByteBuf built = new RecordBatchBuilder(ALLOC, compression, 0, 1L).partitionLeaderEpoch(-7)
                .append(1L, null, new byte[] {1}, List.of()).build();
        byte[] bytes = ByteBufUtil.getBytes(built);
        built.release();
        return bytes;
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuf out = Unpooled.buffer();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return ByteBufUtil.getBytes(out);
    }

    @Test
    void sameVerdictAsKafka() {
        byte[] legacy = MemoryRecords.withRecords(RecordBatch.MAGIC_VALUE_V1, Compression.NONE, new SimpleRecord(1L, new byte[] {1}, new byte[] {2}))
                .buffer().array();
        byte[][] cases = {
            new byte[0],
            new byte[5],
            batch(CompressionType.NONE),
            batch(CompressionType.ZSTD),
            batch(CompressionType.GZIP),
            concat(batch(CompressionType.NONE), batch(CompressionType.NONE)),
            concat(batch(CompressionType.LZ4), new byte[30]),
            legacy,
        };
        for (short version = 3; version <= 13; version++) {
            for (int i = 0; i < cases.length; i++) {
                assertThat(ours(version, cases[i])).as("case " + i + " at v" + version).isEqualTo(kafkas(version, cases[i]));
            }
        }
    }

    @Test
    void anyPartitionLeaderEpochIsAccepted() {
        for (int epoch : new int[] {-1, 0, Integer.MAX_VALUE, Integer.MIN_VALUE}) {
            ByteBuf built = new RecordBatchBuilder(ALLOC, CompressionType.NONE, 0, 1L).partitionLeaderEpoch(epoch)
                    .append(1L, null, null, List.of()).build();
            assertThat(ProduceRecords.validate((short) 9, built).partitionLeaderEpoch()).isEqualTo(epoch);
            built.release();
        }
    }

    private static Errors ours(short version, byte[] records) {
        try {
            ProduceRecords.validate(version, Unpooled.wrappedBuffer(records));
            return Errors.NONE;
        } catch (ProtocolException e) {
            return e.error();
        }
    }

    private static Errors kafkas(short version, byte[] records) {
        try {
            ProduceRequest.validateRecords(version, MemoryRecords.readableRecords(ByteBuffer.wrap(records)));
            return Errors.NONE;
        } catch (RuntimeException e) {
            return Errors.forCode(org.apache.kafka.common.protocol.Errors.forException(e).code());
        }
    }
}
