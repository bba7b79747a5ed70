package io.minibroker.purgatory;

import java.util.concurrent.atomic.LongAdder;

/** Running totals of one purgatory, kept whether or not a meter registry reads them. */
final class PurgatoryStats {

    final LongAdder completions = new LongAdder();
    final LongAdder expirations = new LongAdder();
    final LongAdder purges = new LongAdder();

    void recordCompletion(boolean expired) {
        (expired ? expirations : completions).increment();
    }
}
