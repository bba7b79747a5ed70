package io.minibroker.broker.control;

import java.time.Duration;
import java.util.List;

/**
 * What the controls ask of a cluster node's replication (its replica manager implements it through the server):
 * ISR changes on a partition's leader, lag on a follower.
 */
public interface ReplicaFaults {

    /** On the partition's leader: takes {@code node} out of the ISR now and keeps it out; returns the ISR. */
    List<Integer> shrinkIsr(String topic, int partition, int node) throws InterruptedException;

    /** On the partition's leader: lets {@code node} back in, at once if it has caught up; returns the ISR. */
    List<Integer> growIsr(String topic, int partition, int node) throws InterruptedException;

    /** Stops replicating the partition ({@code partition} -1: the topic; a null topic: every partition). */
    void lagFollower(String topic, int partition);

    /** Replicates again what {@link #lagFollower} of the same arguments stopped (a null topic: everything). */
    void resumeFollower(String topic, int partition);

    /**
     * Delays each fetch of the partition by {@code delay} after the previous answer ({@code partition} -1: the topic;
     * a null topic: every partition); {@link Duration#ZERO} lifts it. A negative delay: IllegalArgumentException.
     */
    void slowFollower(String topic, int partition, Duration delay);

    /** Every follower replicates again, at full speed, and no node is held out of an ISR any more. */
    void clear();
}
