package io.minibroker.purgatory;

import java.util.concurrent.atomic.AtomicInteger;

/** An operation that completes once {@link #satisfy()} has been called, counting its callbacks. */
class TestOperation extends DelayedOperation {

    final AtomicInteger tryCompletes = new AtomicInteger();
    final AtomicInteger completions = new AtomicInteger();
    final AtomicInteger expirations = new AtomicInteger();
    private volatile boolean satisfied;

    TestOperation(long delayMs) {
        super(delayMs);
    }

    void satisfy() {
        satisfied = true;
    }

    @Override
    public boolean tryComplete() {
        tryCompletes.incrementAndGet();
        return satisfied && forceComplete();
    }

    @Override
    protected void onComplete() {
        completions.incrementAndGet();
    }

    @Override
    protected void onExpiration() {
        expirations.incrementAndGet();
    }
}
