package io.minibroker.protocol.record;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Size;

/** Mutated and random record batches: reading them fails only with {@link ProtocolException}. */
class RecordFuzzTest {
    private static final UnpooledByteBufAllocator ALLOC = new UnpooledByteBufAllocator(false);
    private static final Map<CompressionType, byte[]> SAMPLES = new EnumMap<>(CompressionType.class);

    static {
        for (CompressionType type : CompressionType.values()) {
            RecordBatchBuilder builder = new RecordBatchBuilder(ALLOC, type, 10, 1_000);
            for (int i = 0; i < 5; i++) {
                builder.append(1_000 + i, i % 2 == 0 ? null : new byte[] {(byte) i}, ("value-" + i).getBytes(),
                        List.of(new Header("h" + i, i % 3 == 0 ? null : Unpooled.wrappedBuffer(new byte[] {1, 2}))));
            }
            ByteBuf batch = builder.build();
            SAMPLES.put(type, ByteBufUtil.getBytes(batch));
            batch.release();
        }
    }

    @Property(tries = 2000)
    void mutatedBatchesFailOnlyWithProtocolException(@ForAll CompressionType type, @ForAll long seed) {
        Random random = new Random(seed);
        byte[] batch = SAMPLES.get(type).clone();
        int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++) {
            // Mostly hit the compressed payload and record area, sometimes the header.
            int at = random.nextInt(10) < 8 ? RecordBatch.HEADER_BYTES + random.nextInt(batch.length - RecordBatch.HEADER_BYTES)
                    : random.nextInt(RecordBatch.HEADER_BYTES);
            batch[at] = (byte) random.nextInt(256);
        }
        readEverything(batch);
    }

    @Property(tries = 1000)
    void randomBytesFailOnlyWithProtocolException(@ForAll @Size(max = 300) byte[] bytes) {
        readEverything(bytes);
    }

    private static void readEverything(byte[] bytes) {
        try {
            RecordBatches batches = RecordBatches.of(Unpooled.wrappedBuffer(bytes));
            while (batches.hasNext()) {
                RecordBatch batch = batches.next();
                batch.isValid();
                try (RecordIterator records = batch.records(ALLOC, 1 << 20)) {
                    while (records.hasNext()) {
                        assertThat(records.next()).isNotNull();
                    }
                }
            }
        } catch (ProtocolException expected) {
            assertThat(expected.error()).isNotNull();
        }
    }
}
