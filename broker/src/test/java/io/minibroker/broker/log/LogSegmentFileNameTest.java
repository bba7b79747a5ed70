package io.minibroker.broker.log;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Segment file names as Kafka's: the base offset in twenty zero-padded digits, then the suffix. */
class LogSegmentFileNameTest {

    @Test
    void theBaseOffsetIsZeroPaddedToTwentyDigits() {
        assertThat(LogSegment.fileName(0, ".log")).isEqualTo("00000000000000000000.log");
        assertThat(LogSegment.fileName(368_769, ".index")).isEqualTo("00000000000000368769.index");
        assertThat(LogSegment.fileName(Long.MAX_VALUE, ".timeindex")).isEqualTo("09223372036854775807.timeindex");
        assertThat(LogSegment.fileName(42, "")).isEqualTo("00000000000000000042");
    }

    @Test
    void aNegativeOffsetHasNoName() {
        assertThatThrownBy(() -> LogSegment.fileName(-1, ".log")).isInstanceOf(IllegalArgumentException.class);
    }
}
