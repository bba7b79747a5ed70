package io.minibroker.broker.network;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameDecoderBudgetTest {

    private final MemoryBudget budget = new MemoryBudget(150);
    private final MemoryBudget unauthenticated = new MemoryBudget(150);

    private EmbeddedChannel connection(boolean authenticated) {
        ReadGate gate = new ReadGate();
        return new EmbeddedChannel(gate,
                new FrameDecoder(() -> 1000, () -> authenticated, budget, unauthenticated, gate, () -> { }));
    }

    /** The size prefix of a frame of {@code size} bytes and its first {@code sent} bytes. */
    private static ByteBuf start(int size, int sent) {
        return Unpooled.buffer().writeInt(size).writeZero(sent);
    }

    @Test
    void aPartialFrameHoldsItsWholeSizeUntilItIsComplete() {
        EmbeddedChannel channel = connection(true);
        channel.writeInbound(start(100, 10));
        assertThat(budget.reserved()).isEqualTo(104);
        assertThat((Object) channel.readInbound()).isNull();

        channel.writeInbound(Unpooled.buffer().writeZero(90));
        ByteBuf frame = channel.readInbound();
        assertThat(frame.readableBytes()).isEqualTo(100);
        frame.release();
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aFrameThatArrivedWholeNeedsNoBudget() {
        EmbeddedChannel holder = connection(true);
        holder.writeInbound(start(140, 1));
        EmbeddedChannel small = connection(true);
        small.writeInbound(start(50, 50));
        ByteBuf frame = small.readInbound();
        assertThat(frame.readableBytes()).isEqualTo(50);
        frame.release();
        assertThat(small.config().isAutoRead()).isTrue();
    }

    @Test
    void aSpentBudgetPausesReadingUntilBytesAreReleased() {
        EmbeddedChannel first = connection(true);
        first.writeInbound(start(100, 10));
        EmbeddedChannel second = connection(true);
        second.writeInbound(start(100, 10));
        assertThat(second.config().isAutoRead()).isFalse();
        assertThat(budget.reserved()).isEqualTo(104);

        first.writeInbound(Unpooled.buffer().writeZero(90));
        ((ByteBuf) first.readInbound()).release();
        second.runPendingTasks();
        assertThat(second.config().isAutoRead()).isTrue();

        second.writeInbound(Unpooled.buffer().writeZero(90));
        ((ByteBuf) second.readInbound()).release();
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void aClosedConnectionGivesItsBytesBack() {
        EmbeddedChannel channel = connection(true);
        channel.writeInbound(start(100, 10));
        channel.close();
        assertThat(budget.reserved()).isZero();
    }

    @Test
    void anUnauthenticatedConnectionIsClosedWhenTheirBudgetIsSpent() {
        connection(false).writeInbound(start(140, 10));
        assertThat(unauthenticated.reserved()).isEqualTo(144);
        EmbeddedChannel second = connection(false);
        assertThatThrownBy(() -> second.writeInbound(start(100, 10))).isInstanceOf(DecoderException.class)
                .hasMessageContaining("unauthenticated connections already hold 144 bytes");
        assertThat(budget.reserved()).isZero();
    }
}
