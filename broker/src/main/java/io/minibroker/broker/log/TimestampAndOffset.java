package io.minibroker.broker.log;

/** The answer to a ListOffsets lookup: a record's timestamp and offset. */
public record TimestampAndOffset(long timestamp, long offset) {
}
