package io.minibroker.broker.sharegroup;

/**
 * A share group's effective settings, Kafka's group configs of that name ({@code share.*}) resolved against the
 * broker's {@code group.share.*} defaults.
 *
 * @param autoOffsetReset         {@code share.auto.offset.reset}: where a share-partition starts when it has no state
 * @param recordLockDurationMs    {@code share.record.lock.duration.ms}: how long an acquired record stays locked
 * @param deliveryCountLimit      {@code share.delivery.count.limit}: deliveries before a record is archived
 * @param partitionMaxRecordLocks {@code share.partition.max.record.locks}: in-flight records per share-partition
 * @param isolationLevel          {@code share.isolation.level}: which records a share-partition may hand out
 * @param sessionTimeoutMs        {@code share.session.timeout.ms}
 * @param heartbeatIntervalMs     {@code share.heartbeat.interval.ms}
 */
public record ShareGroupSettings(AutoOffsetReset autoOffsetReset, int recordLockDurationMs, int deliveryCountLimit,
                                 int partitionMaxRecordLocks, IsolationLevel isolationLevel, int sessionTimeoutMs,
                                 int heartbeatIntervalMs) {

    /**
     * {@code share.auto.offset.reset}: "earliest", "latest" (Kafka's default) or "by_duration:&lt;ISO-8601 duration&gt;",
     * in which case {@code durationMs} is how far back from now the share-partition starts (else -1).
     */
    public record AutoOffsetReset(Strategy strategy, long durationMs) {
        public enum Strategy { EARLIEST, LATEST, BY_DURATION }

        public static final AutoOffsetReset LATEST = new AutoOffsetReset(Strategy.LATEST, -1);
        public static final AutoOffsetReset EARLIEST = new AutoOffsetReset(Strategy.EARLIEST, -1);
    }

    /** {@code share.isolation.level}: Kafka's default is read_uncommitted. */
    public enum IsolationLevel { READ_UNCOMMITTED, READ_COMMITTED }
}
