package io.minibroker.broker.group;

import io.minibroker.purgatory.DelayedOperation;

import java.util.function.LongSupplier;

/**
 * A member's timeout in a purgatory (a session, a rebalance): done quietly once the member's token moves on (a sign
 * of life superseded it), else, expired, it calls back. What {@link MemberTimeouts} watches.
 */
final class TokenTimeout extends DelayedOperation {
    private final LongSupplier current;
    private final long token;
    private final Runnable onExpiry;

    TokenTimeout(long delayMs, LongSupplier current, long token, Runnable onExpiry) {
        super(delayMs);
        this.current = current;
        this.token = token;
        this.onExpiry = onExpiry;
    }

    @Override
    public boolean tryComplete() {
        return current.getAsLong() != token && forceComplete();
    }

    @Override
    protected void onComplete() {
        // Superseded: the member showed signs of life or finished what the timeout was watching.
    }

    @Override
    protected void onExpiration() {
        onExpiry.run();
    }
}
