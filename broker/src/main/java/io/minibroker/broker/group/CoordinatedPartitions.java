package io.minibroker.broker.group;

import io.minibroker.protocol.error.Errors;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which partitions of {@code __consumer_offsets} this broker coordinates the groups of, as Kafka's coordinator
 * tracks its shards: a partition it leads is Loading until its commits are replayed, then Loaded; one it does not
 * lead is not here. A group request is for this broker only when its group's partition is Loaded
 * (NOT_COORDINATOR otherwise, COORDINATOR_LOAD_IN_PROGRESS while Loading). A single node coordinates every group.
 */
final class CoordinatedPartitions {

    private enum State { LOADING, LOADED }

    /** A partition's state in one leader epoch: a load finishing for an older epoch changes nothing. */
    private record Lead(int leaderEpoch, State state) {
    }

    private final boolean everything;
    private final Map<Integer, Lead> led = new ConcurrentHashMap<>();

    private CoordinatedPartitions(boolean everything) {
        this.everything = everything;
    }

    /** A single node's: every group is coordinated here. */
    static CoordinatedPartitions singleNode() {
        return new CoordinatedPartitions(true);
    }

    /** A cluster broker's: no group until it leads partitions of the offsets topic. */
    static CoordinatedPartitions cluster() {
        return new CoordinatedPartitions(false);
    }

    /** NONE when this broker coordinates the groups of this partition now, else the error for the client. */
    Errors check(int partition) {
        if (everything) {
            return Errors.NONE;
        }
        Lead lead = led.get(partition);
        return lead == null ? Errors.NOT_COORDINATOR
                : lead.state() == State.LOADING ? Errors.COORDINATOR_LOAD_IN_PROGRESS : Errors.NONE;
    }

    /** Whether some partition is still loading (ListGroups cannot list all of this broker's groups yet). */
    boolean anyLoading() {
        return led.values().stream().anyMatch(lead -> lead.state() == State.LOADING);
    }

    /** This broker leads the partition from this epoch: it loads it. */
    void loading(int partition, int leaderEpoch) {
        led.put(partition, new Lead(leaderEpoch, State.LOADING));
    }

    /**
     * Led again at a newer epoch, with no resignation in between: a loaded partition stays loaded at that epoch,
     * as Kafka's coordinator runtime keeps an active coordinator and only notes the epoch. False when the
     * partition is not loaded here (it is to be loaded).
     */
    boolean ledAgain(int partition, int leaderEpoch) {
        Lead lead = led.computeIfPresent(partition, (index, current) -> current.state() == State.LOADED
                ? new Lead(leaderEpoch, State.LOADED) : current);
        return lead != null && lead.state() == State.LOADED;
    }

    /** The load of this epoch finished; false if leadership moved meanwhile (nothing changes). */
    boolean loaded(int partition, int leaderEpoch) {
        return led.replace(partition, new Lead(leaderEpoch, State.LOADING), new Lead(leaderEpoch, State.LOADED));
    }

    /** This broker no longer leads the partition. */
    void resigned(int partition) {
        led.remove(partition);
    }

    /** Whether this broker leads the partition (loading or loaded). */
    boolean leads(int partition) {
        return everything || led.containsKey(partition);
    }
}
