package io.minibroker.broker.network;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.File;
import org.junit.jupiter.api.Test;

class SendfileAwareSizeEstimatorTest {

    @Test
    void fileRegionsWeighTheirBytesAndBuffersTheirReadableBytes() {
        assertThat(SendfileAwareSizeEstimator.INSTANCE.newHandle().size(new DefaultFileRegion(new File("unopened"), 0, 5000)))
                .isEqualTo(5000);
        assertThat(SendfileAwareSizeEstimator.INSTANCE.newHandle().size(Unpooled.wrappedBuffer(new byte[12])))
                .isEqualTo(12);
    }

    @Test
    void anUnsentFileRegionMakesTheConnectionUnwritable() {
        EmbeddedChannel channel = new EmbeddedChannel();
        channel.config().setMessageSizeEstimator(SendfileAwareSizeEstimator.INSTANCE);
        channel.config().setWriteBufferWaterMark(new WriteBufferWaterMark(1024, 2048));

        channel.write(new DefaultFileRegion(new File("unopened"), 0, 4096)); // not flushed: pending
        assertThat(channel.isWritable()).isFalse();
        channel.finishAndReleaseAll();
    }
}
