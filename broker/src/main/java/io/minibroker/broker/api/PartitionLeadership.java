package io.minibroker.broker.api;

import io.minibroker.broker.log.LogException;
import io.minibroker.broker.log.PartitionLog;
import io.minibroker.broker.log.TopicPartition;
import io.minibroker.protocol.error.Errors;


/**
 * Which partitions this broker leads, and what a follower's fetch tells the leader. A single node leads every
 * partition it has and has no followers.
 */
public interface PartitionLeadership {

    PartitionLeadership SINGLE_NODE = new PartitionLeadership() {
        @Override
        public boolean isLeader(TopicPartition partition) {
            return true;
        }

        @Override
        public int inSyncReplicas(TopicPartition partition) {
            return 1; // the leader, the only replica
        }

        @Override
        public int replicaCount(TopicPartition partition) {
            return 1;
        }

        @Override
        public int leaderEpoch(TopicPartition partition) {
            return 0; // leadership never moves
        }

        @Override
        public void onFollowerFetch(TopicPartition partition, int replicaId, long replicaEpoch, long fetchOffset,
                                    long logStartOffset) {
            // no followers on a single node
        }

        @Override
        public void onLeaderAppend(TopicPartition partition) {
            // the high watermark is the log end
        }

        @Override
        public long lowWatermark(PartitionLog log) {
            return log.logStartOffset(); // no other replica
        }
    };

    /**
     * Who leads a partition as this broker's metadata has it, and that leader's endpoint on one listener: Kafka's
     * getCurrentLeader, which a refused produce (v10+) or fetch (v16+) answers with (KIP-951) so the client need not
     * ask Metadata first, with its rack (null: none), as Kafka's NodeEndpoints carry it. Leader and epoch -1, no
     * endpoint, when unknown.
     */
    record CurrentLeader(int leaderId, int leaderEpoch, String host, int port, String rack) {
        public static final CurrentLeader UNKNOWN = new CurrentLeader(-1, -1, null, -1, null);

        /** Whether the leader's endpoint is known (a node to name in the answer's NodeEndpoints). */
        public boolean hasEndpoint() {
            return host != null;
        }
    }

    /**
     * The {@link CurrentLeader} of a partition, its endpoint on {@code listener}. A single node has no other leader
     * to name: a partition it has not is UNKNOWN.
     */
    default CurrentLeader currentLeader(TopicPartition partition, String listener) {
        return CurrentLeader.UNKNOWN;
    }

    /**
     * KIP-392: the replica a consumer's fetch from {@code fetchOffset}, in rack {@code clientRack} (null or empty: none
     * told) on {@code listener}, should go to instead of this leader, as {@code replica.selector.class} picks it;
     * -1 for none (this broker, or one that does not lead). A single node is the only replica.
     */
    default int preferredReadReplica(TopicPartition partition, String clientRack, String listener, long fetchOffset) {
        return -1;
    }

    /** Whether produces and consumers' fetches for this partition belong here. */
    boolean isLeader(TopicPartition partition);

    /**
     * Whether this broker holds a replica of the partition as its metadata has it, leader or follower: a consumer's
     * fetch from a follower (KIP-392) is served where this holds. A single node holds every partition it has.
     */
    default boolean hostsReplica(TopicPartition partition) {
        return isLeader(partition);
    }

    /** The leader epoch appends to a partition led here are stamped with. */
    int leaderEpoch(TopicPartition partition);

    /** How many replicas of a partition this broker leads are in sync, itself included (min.insync.replicas). */
    int inSyncReplicas(TopicPartition partition);

    /** How many replicas a partition this broker leads has, itself included: its replication factor. */
    int replicaCount(TopicPartition partition);

    /**
     * The ISR size acks=all needs: {@code minInsync} ({@code min.insync.replicas}), but never more than the replicas
     * there are, as Kafka's Partition.effectiveMinIsr (KAFKA-15583): a topic of one replica with min.insync.replicas
     * 2 takes acks=all produces, its high watermark moving with its log end.
     */
    default int effectiveMinIsr(TopicPartition partition, int minInsync) {
        return Math.min(minInsync, replicaCount(partition));
    }

    /** Whether fewer replicas are in sync than {@link #effectiveMinIsr} asks: the high watermark then stays put. */
    default boolean isUnderMinIsr(TopicPartition partition, int minInsync) {
        return inSyncReplicas(partition) < effectiveMinIsr(partition, minInsync);
    }

    /**
     * Whether {@code replicaId} is a follower of this partition led here, as this broker's metadata has it (Kafka's
     * Partition.getReplica): a follower's fetch from a broker that is not one is refused, never parked, because a
     * reassignment's new replica may have the image that adds it before its leader has: its fetch, answered at once,
     * is sent again after the fetcher's backoff, and once the leader has the image it is heard (and may join the ISR).
     * Parked instead, it would wait for an append or its timeout. A single node has no followers.
     */
    default boolean hasFollower(TopicPartition partition, int replicaId) {
        return false;
    }

    /**
     * A follower fetched this partition from {@code fetchOffset}: its log ends there. {@code replicaEpoch} is the
     * broker epoch it sent (-1 when unknown), which the leader names it by when it asks for it in the ISR;
     * {@code logStartOffset} where its log starts (DeleteRecords waits for it).
     */
    void onFollowerFetch(TopicPartition partition, int replicaId, long replicaEpoch, long fetchOffset,
                         long logStartOffset);

    /**
     * KIP-73 on the leader, as Kafka's shouldLeaderThrottle: whether a follower's fetch of this partition is answered
     * without records now, because the follower is not in the ISR, the topic's
     * {@code leader.replication.throttled.replicas} names this broker for the partition, and the bytes sent for such
     * partitions are above {@code leader.replication.throttled.rate}. Never on a single node, which has no followers.
     */
    default boolean throttlesFollowerFetch(TopicPartition partition, int replicaId) {
        return false;
    }

    /**
     * Whether the bytes a follower is sent of {@code partition} count against the leader's replication throttle,
     * whichever follower they go to, in sync or not (Kafka's ReplicationQuotaManager.isThrottled): the topic's
     * {@code leader.replication.throttled.replicas} names this broker for it.
     */
    default boolean isLeaderThrottled(TopicPartition partition) {
        return false;
    }

    /**
     * A follower's fetch answered, with the bytes it was sent of the partitions {@link #isLeaderThrottled}: one
     * record per answer, 0 too, as Kafka's KafkaApis records every follower fetch's throttled bytes.
     */
    default void answeredFollower(long throttledBytes) {
    }

    /**
     * The least log start offset over a partition led here and its live followers, as Kafka's low watermark:
     * records below it are gone from every live replica.
     */
    long lowWatermark(PartitionLog log);

    /**
     * Records were appended to a partition led here: a leader alone in its ISR commits them at once, unless that ISR
     * is under min.insync.replicas, which holds the high watermark.
     */
    void onLeaderAppend(TopicPartition partition);

    /**
     * Why a leader append to {@code partition} is refused now, as Kafka's appendRecordsToLeader refuses it, or null
     * if it may go ahead: NOT_LEADER_OR_FOLLOWER on a node that does not lead it, NOT_ENOUGH_REPLICAS when fewer
     * than {@link #effectiveMinIsr} of {@code minInsync} replicas are in sync (0 for acks 0 and 1, which skip the
     * check).
     */
    default LogException appendRefusal(TopicPartition partition, int minInsync) {
        if (!isLeader(partition)) {
            return new LogException(Errors.NOT_LEADER_OR_FOLLOWER, "this broker does not lead " + partition);
        }
        if (minInsync > 0 && isUnderMinIsr(partition, minInsync)) {
            int inSync = inSyncReplicas(partition);
            return new LogException(Errors.NOT_ENOUGH_REPLICAS, "min.insync.replicas is "
                    + effectiveMinIsr(partition, minInsync) + " but only " + inSync
                    + (inSync == 1 ? " replica is" : " replicas are") + " in sync");
        }
        return null;
    }

    /**
     * Kafka's check of a request that names the leader epoch it knows ({@code currentEpoch}, -1 for none), in
     * Kafka's order (Partition.getLocalLog): the epoch first, older than ours FENCED_LEADER_EPOCH and newer
     * UNKNOWN_LEADER_EPOCH, then, when {@code requireLeader}, NOT_LEADER_OR_FOLLOWER if this node does not lead.
     * A partition of which this node holds no replica is NOT_LEADER_OR_FOLLOWER before any epoch check.
     */
    default Errors checkLeaderEpoch(TopicPartition partition, int currentEpoch, boolean requireLeader) {
        return checkLeaderEpoch(leaderEpoch(partition), isLeader(partition), currentEpoch, requireLeader);
    }

    /**
     * {@link #checkLeaderEpoch(TopicPartition, int, boolean)} against one partition's epoch here ({@code ours}) and
     * whether this node leads it, which an implementation whose leadership changes under it reads together, from
     * one state: read apart, a new term's leadership could be served to a request naming the old term's epoch.
     */
    static Errors checkLeaderEpoch(int ours, boolean leads, int currentEpoch, boolean requireLeader) {
        if (currentEpoch != -1 && currentEpoch < ours) {
            return Errors.FENCED_LEADER_EPOCH;
        }
        if (currentEpoch != -1 && currentEpoch > ours) {
            return Errors.UNKNOWN_LEADER_EPOCH;
        }
        return requireLeader && !leads ? Errors.NOT_LEADER_OR_FOLLOWER : Errors.NONE;
    }
}
