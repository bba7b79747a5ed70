package io.minibroker.broker.network;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The gate's pause and resume against the request handler's own switching of {@code autoRead}. */
class ReadGateTest {

    /** Counts the reads that get past the gate to the socket. */
    private static final class SocketReads extends ChannelOutboundHandlerAdapter {
        int count;

        @Override
        public void read(ChannelHandlerContext ctx) {
            count++;
            ctx.read();
        }
    }

    @Test
    void aReadAskedForWhilePausedReachesTheSocketOnResumeEvenIfReadingWasTurnedOnMeanwhile() {
        SocketReads reads = new SocketReads();
        ReadGate gate = new ReadGate();
        EmbeddedChannel channel = new EmbeddedChannel(reads, gate);
        gate.pause();
        int before = reads.count;

        // An earlier request is answered: the request handler has room again and turns reading on.
        channel.config().setAutoRead(true);
        assertThat(reads.count).as("held while the budget has no room").isEqualTo(before);

        gate.resume();
        assertThat(reads.count).as("the held read issued once the budget has room").isEqualTo(before + 1);
        channel.finishAndReleaseAll();
    }

    @Test
    void resumingTurnsReadingBackOnWhenNothingElseDid() {
        SocketReads reads = new SocketReads();
        ReadGate gate = new ReadGate();
        EmbeddedChannel channel = new EmbeddedChannel(reads, gate);
        gate.pause();
        int before = reads.count;

        gate.resume();
        assertThat(channel.config().isAutoRead()).isTrue();
        assertThat(reads.count).as("one read, from turning autoRead on").isEqualTo(before + 1);
        channel.finishAndReleaseAll();
    }
}
