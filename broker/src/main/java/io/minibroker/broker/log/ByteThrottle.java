package io.minibroker.broker.log;

/**
 * A bound on bytes per second that work on the logs checks before each chunk it does and tells what it did: the
 * copy of a replica moving to another directory is paced by one ({@code replica.alter.log.dirs.io.max.bytes.per.second},
 * Kafka's alter-log-dirs replication quota). The log package only asks; how the rate is measured is the quotas'.
 */
public interface ByteThrottle {

    /** No bound: never exceeded, nothing kept. */
    ByteThrottle NONE = new ByteThrottle() {
        @Override
        public boolean isExceeded() {
            return false;
        }

        @Override
        public void record(long bytes) {
        }
    };

    /** Whether the bytes recorded are, as a rate, above the bound now: then the work waits before its next chunk. */
    boolean isExceeded();

    /** Counts {@code bytes} just done against the bound. */
    void record(long bytes);
}
