package io.minibroker.protocol.message.view;

import static org.assertj.core.api.Assertions.assertThat;

import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.MessageSchema;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/**
 * The hot paths' numbers never become objects: a struct holds them in primitive slots, so what a message costs in
 * heap does not depend on its numbers' values. With boxed storage it would: {@code Long.valueOf} and
 * {@code Integer.valueOf} share objects for -128..127 only, so every offset or timestamp outside that range is a
 * new object on decode and on set. Both checks compare allocations, measured by the JVM per thread, of the same
 * work with small and with large values; neither measures time.
 */
class UnboxedNumbersTest {
    private static final int PARTITIONS = 64;
    private static final int ROUNDS = 50;
    /** What a boxed Long costs at the least (header and value, compressed class pointer). */
    private static final int BOX_BYTES = 16;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    @Test
    void decodingAFetchResponseAllocatesTheSameWhateverItsOffsets() {
        MessageSchema schema = ApiKey.FETCH.response();
        short version = ApiKey.FETCH.highestStableVersion();
        ByteBuf small = fetchResponse(schema, version, 0);
        ByteBuf large = fetchResponse(schema, version, 5_000_000_000L);
        assertThat(large.readableBytes()).isEqualTo(small.readableBytes());
        Runnable decodeSmall = () -> schema.read(small.duplicate(), version);
        Runnable decodeLarge = () -> schema.read(large.duplicate(), version);
        warmUp(decodeSmall, decodeLarge);

        long smallBytes = allocated(decodeSmall);
        long extra = allocated(decodeLarge) - smallBytes;

        // Boxed, each round would allocate 3 Longs (high watermark, last stable offset, log start) per partition more.
        assertThat(extra).as("bytes that large offsets cost over %d decodes", ROUNDS)
                .isLessThan((long) ROUNDS * PARTITIONS * 3 * BOX_BYTES / 4);
    }

    @Test
    void settingOffsetsThroughAViewAllocatesTheSameWhateverTheirValue() {
        ProduceResponseView.PartitionProduceResponse partition = new ProduceResponseView().addResponse()
                .addPartitionResponse();
        Runnable setSmall = () -> setOffsets(partition, 0);
        Runnable setLarge = () -> setOffsets(partition, 5_000_000_000L);
        warmUp(setSmall, setLarge);

        long smallBytes = allocated(setSmall);
        long extra = allocated(setLarge) - smallBytes;

        assertThat(partition.baseOffset()).isEqualTo(5_000_000_000L + PARTITIONS - 1);
        assertThat(extra).as("bytes that large offsets cost over %d x %d sets", ROUNDS, PARTITIONS)
                .isLessThan((long) ROUNDS * PARTITIONS * 2 * BOX_BYTES / 4);
    }

    private static void setOffsets(ProduceResponseView.PartitionProduceResponse partition, long base) {
        for (int p = 0; p < PARTITIONS; p++) {
            partition.baseOffset(base + p).logStartOffset(base + p);
        }
    }

    private static ByteBuf fetchResponse(MessageSchema schema, short version, long offsets) {
        FetchResponseView response = new FetchResponseView();
        FetchResponseView.FetchableTopicResponse topic = response.addResponse().topic("t");
        for (int p = 0; p < PARTITIONS; p++) {
            topic.addPartition().partitionIndex(p).highWatermark(offsets + p).lastStableOffset(offsets + p)
                    .logStartOffset(offsets + p).records(Unpooled.EMPTY_BUFFER);
        }
        ByteBuf out = Unpooled.buffer();
        schema.write(out, response.struct(), version);
        return out;
    }

    /** Runs both long enough for the JIT to have compiled what it will, so that neither is measured cold. */
    private static void warmUp(Runnable a, Runnable b) {
        for (int i = 0; i < 20; i++) {
            allocated(a);
            allocated(b);
        }
    }

    private static long allocated(Runnable work) {
        long id = Thread.currentThread().getId();
        long before = THREADS.getThreadAllocatedBytes(id);
        for (int i = 0; i < ROUNDS; i++) {
            work.run();
        }
        return THREADS.getThreadAllocatedBytes(id) - before;
    }
}
