package io.minibroker.broker.log;

/**
 * Told when a partition's log appears (opened at start or created) and when it is deleted, for example to
 * give each log its meters, and when a log rolls a segment. Called with the log manager's lock held (opened,
 * deleted) or the log's (rolled): it must be quick, must not block and must not call back into either. A log just
 * opened may be changed in memory under its own monitor (a single node's leader epoch): the manager takes a log's
 * monitor under its own lock, never the other way round.
 */
public interface LogListener {

    default void logOpened(PartitionLog log) {
    }

    default void logDeleted(TopicPartition tp) {
    }

    /** A segment was rolled, on the appending thread (often an event loop); its fsync is left to the listener. */
    default void segmentRolled(PartitionLog log) {
    }
}
