package io.minibroker.broker.share;

/** A run of offsets acquired by one fetch, all delivered the same number of times (ShareFetch's AcquiredRecords). */
public record AcquiredRecords(long firstOffset, long lastOffset, int deliveryCount) {
}
