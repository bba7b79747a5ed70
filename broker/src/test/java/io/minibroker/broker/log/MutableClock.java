package io.minibroker.broker.log;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A wall clock that moves only when a test says so. */
final class MutableClock extends Clock {
    private volatile long millis;

    MutableClock(long millis) {
        this.millis = millis;
    }

    void advance(long ms) {
        millis += ms;
    }

    void set(long ms) {
        millis = ms;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
