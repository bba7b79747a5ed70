package io.minibroker.protocol.record;

import io.minibroker.protocol.error.ProtocolException;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InflationBudgetTest {

    @Test
    void buffersShareTheBudgetAndGiveItBackWhenReleased() {
        InflationBudget budget = new InflationBudget(150);
        ByteBuf first = budget.heapBuffer(100);
        assertThat(budget.inUse()).isEqualTo(100);
        assertThatThrownBy(() -> budget.heapBuffer(100)).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("already hold 100 of the 150 bytes");
        assertThat(budget.inUse()).isEqualTo(100);
        first.release();
        assertThat(budget.inUse()).isZero();
        budget.heapBuffer(100).release();
    }

    @Test
    void aGrowingBufferCountsEachArrayAndFailsPastTheBudget() {
        InflationBudget budget = new InflationBudget(1000);
        ByteBuf growing = budget.heapBuffer(64);
        growing.writeZero(64);
        growing.writeZero(100); // grows: the old array is given back once copied
        assertThat(budget.inUse()).isEqualTo(growing.capacity());
        assertThatThrownBy(() -> growing.writeZero(2000)).isInstanceOf(ProtocolException.class);
        growing.release();
        assertThat(budget.inUse()).isZero();
    }
}
