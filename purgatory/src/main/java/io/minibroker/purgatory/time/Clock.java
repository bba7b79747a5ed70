package io.minibroker.purgatory.time;

/**
 * A monotonic source of milliseconds. Timer deadlines are measured against it and never against wall-clock
 * time, so a wall-clock step (NTP, a VM resume, a user changing the date) cannot fire or delay a timeout.
 *
 * <p>Values are only meaningful relative to each other: they may be negative, and an implementation may start
 * anywhere.
 */
public interface Clock {

    /** The current monotonic time in milliseconds. */
    long nowMs();
}
