package io.minibroker.broker.api;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The time one request spends in its handler on the broker's threads: the handler's call on the connection's event
 * loop, and its part on the disk thread ({@link DiskBoundHandler}). It is minibroker's counterpart of the time Kafka
 * measures on its request handler threads, which a client's {@code request_percentage} quota (KIP-124) bounds; the
 * two parts may run on two threads, so the total is kept atomically.
 */
public final class HandlerTime {

    /**
     * For a request whose time counts against no quota: on a controller's listener (its peers are the cluster's
     * nodes), and during a SASL exchange, which Kafka's authenticator serves off the request handler threads. Never
     * reads a clock.
     */
    public static final HandlerTime NOT_COUNTED = new HandlerTime(null);

    /** The broker's clock in nanoseconds; null for {@link #NOT_COUNTED}. */
    private final LongSupplier clockNanos;
    private final AtomicLong spentNanos = new AtomicLong();

    private HandlerTime(LongSupplier clockNanos) {
        this.clockNanos = clockNanos;
    }

    /** A request's time, measured on {@code clockNanos} (the broker's clock, which tests drive). */
    public static HandlerTime counted(LongSupplier clockNanos) {
        return new HandlerTime(clockNanos);
    }

    /** Runs {@code work}, adding the time it took to the request's. */
    public <T> T measure(Supplier<T> work) {
        if (clockNanos == null) {
            return work.get();
        }
        long start = clockNanos.getAsLong();
        try {
            return work.get();
        } finally {
            spentNanos.addAndGet(Math.max(0, clockNanos.getAsLong() - start));
        }
    }

    /** Whether this request's time counts against its client's request quota. */
    public boolean counted() {
        return clockNanos != null;
    }

    /** The time measured so far, in nanoseconds. */
    public long nanos() {
        return spentNanos.get();
    }
}
