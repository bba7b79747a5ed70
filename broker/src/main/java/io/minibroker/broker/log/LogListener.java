package io.minibroker.broker.log;

/**
 * Told when a partition's log appears (opened at start or created) and when it is deleted, for example to
 * give each log its meters. Called with the log manager's lock held: it must be quick and must not call back
 * into the log manager.
 */
public interface LogListener {

    void logOpened(PartitionLog log);

    void logDeleted(TopicPartition tp);
}
