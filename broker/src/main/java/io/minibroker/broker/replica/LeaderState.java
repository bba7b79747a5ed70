package io.minibroker.broker.replica;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntFunction;

/**
 * What the leader of one replicated partition knows of its followers, as Kafka's Partition and Replica keep it:
 * the ISR, its partition epoch once an ISR change told it (-1 before), and for each follower its log start and end, when
 * it was last caught up and the broker epoch it fetches with (KIP-903: the ISR names brokers by id and epoch, so
 * a follower that restarted since is not taken for the one that caught up). Kafka's rule: a fetch from at least the leader's log end at that moment means caught up
 * now; a fetch from at least where the leader's log ended at the follower's previous fetch means caught up as of
 * that previous fetch. Thread-safe: every method holds this object's lock.
 */
final class LeaderState {

    private static final class Follower {
        long brokerEpoch = -1;
        long logStart = -1;
        long logEnd;
        long lastCaughtUpMs;
        long lastFetchLeaderLogEnd;
        long lastFetchMs;
        /**
         * Whether it has fetched in this leader's term: before, its log end is unknown (Kafka's -1 after a leader
         * change), so it is no read replica to point a consumer to.
         */
        boolean fetched;
        /** When an ISR change of ours took it in (-1: never), so that an older image cannot take it out again. */
        long addedToIsrMs = -1;
    }

    private final int leaderId;
    private final Map<Integer, Follower> followers = new HashMap<>();
    private List<Integer> isr;
    private int partitionEpoch = -1;
    /**
     * The ISR change on its way to the controller, null if none: no other is sent until it is answered. Until then
     * the high watermark waits for the members of both (Kafka's maximal ISR): a joiner the controller may already
     * have taken in could be elected with only what it has, and a member leaving is still in the committed ISR.
     */
    private List<Integer> pendingIsr;
    /**
     * The controller refused the pending change in a way a resend would not mend (Kafka's
     * handleAlterPartitionError answers no retry): it stays pending until new metadata for the partition arrives.
     */
    private boolean awaitingMetadata;
    /** The refusal said our partition epoch is not the controller's: it is unknown (-1) once metadata arrives. */
    private boolean partitionEpochStale;

    LeaderState(int leaderId, List<Integer> replicas, List<Integer> isr, long nowMs) {
        this.leaderId = leaderId;
        this.isr = List.copyOf(isr);
        for (int replica : replicas) {
            if (replica != leaderId) {
                Follower follower = new Follower();
                follower.lastCaughtUpMs = nowMs; // a new leader gives every follower a full lag period
                followers.put(replica, follower);
            }
        }
    }

    /**
     * The partition's replicas changed within this leader's term (a reassignment adds replicas without a new leader
     * epoch, as Kafka's): a newcomer is a follower from now on, with a full lag period, outside the ISR until it
     * catches up; a replica gone is no longer one.
     */
    synchronized void replicasChanged(List<Integer> replicas, long nowMs) {
        followers.keySet().removeIf(id -> !replicas.contains(id));
        for (int replica : replicas) {
            if (replica != leaderId && !followers.containsKey(replica)) {
                Follower follower = new Follower();
                follower.lastCaughtUpMs = nowMs;
                followers.put(replica, follower);
            }
        }
    }

    /**
     * The followers a consumer fetching from {@code fetchOffset} may be pointed to, as Kafka's
     * findPreferredReadReplica takes them: in the ISR (a lagging one could leave the consumer behind for good), and
     * holding that offset (log start at or before it, log end at or after it); each in its rack as {@code rackOf}
     * says, with its log end and the time since it was last caught up.
     */
    synchronized List<ReplicaSelector.ReplicaView> readReplicas(long fetchOffset, long nowMs,
                                                                IntFunction<String> rackOf) {
        List<ReplicaSelector.ReplicaView> replicas = new ArrayList<>();
        followers.forEach((id, follower) -> {
            if (isr.contains(id) && follower.fetched && follower.logEnd >= fetchOffset
                    && follower.logStart <= fetchOffset) {
                replicas.add(new ReplicaSelector.ReplicaView(id, rackOf.apply(id), follower.logEnd,
                        nowMs - follower.lastCaughtUpMs));
            }
        });
        return replicas;
    }

    synchronized List<Integer> isr() {
        return isr;
    }

    synchronized int partitionEpoch() {
        return partitionEpoch;
    }

    /** Whether {@code replicaId} is one of the followers, as the replicas last given have them. */
    synchronized boolean hasFollower(int replicaId) {
        return followers.containsKey(replicaId);
    }

    /** What a follower's fetch told the leader. */
    enum FetchSeen {
        /** Not from a replica of this partition. */
        NOT_A_REPLICA,
        /** Recorded; the follower's log start is where it was. */
        RECORDED,
        /** Recorded, and the follower's log start moved: a DeleteRecords may be waiting for that. */
        LOG_START_MOVED
    }

    /** Records a follower's fetch, with the broker epoch and log start it sent. */
    synchronized FetchSeen onFetch(int replicaId, long brokerEpoch, long fetchOffset, long logStart,
                                   long leaderLogEnd, long nowMs) {
        Follower follower = followers.get(replicaId);
        if (follower == null) {
            return FetchSeen.NOT_A_REPLICA;
        }
        boolean logStartMoved = follower.logStart != logStart;
        follower.brokerEpoch = brokerEpoch;
        follower.logStart = logStart;
        if (fetchOffset >= leaderLogEnd) {
            follower.lastCaughtUpMs = nowMs;
        } else if (fetchOffset >= follower.lastFetchLeaderLogEnd) {
            follower.lastCaughtUpMs = Math.max(follower.lastCaughtUpMs, follower.lastFetchMs);
        }
        follower.logEnd = fetchOffset;
        follower.lastFetchLeaderLogEnd = leaderLogEnd;
        follower.lastFetchMs = nowMs;
        follower.fetched = true;
        return logStartMoved ? FetchSeen.LOG_START_MOVED : FetchSeen.RECORDED;
    }

    /**
     * The least log end over the maximal ISR (the committed one and, while a change is pending, the members it asks
     * for), the leader's own being {@code leaderLogEnd}.
     */
    synchronized long leastIsrLogEnd(long leaderLogEnd) {
        long least = leaderLogEnd;
        Set<Integer> maximalIsr = new HashSet<>(isr);
        if (pendingIsr != null) {
            maximalIsr.addAll(pendingIsr);
        }
        for (int replica : maximalIsr) {
            if (replica != leaderId) {
                least = Math.min(least, followers.get(replica).logEnd);
            }
        }
        return least;
    }

    /**
     * The ISR to ask the controller for, or null if it should stay: without the followers not caught up for
     * {@code lagMs}, with the ones outside it whose log end reached both {@code highWatermark} and
     * {@code leaderEpochStartOffset} (Kafka's isFollowerInSync: a follower that has not reached this term's start
     * may still hold a tail of the previous leader's) and that are among {@code liveBrokers} (KIP-841: a fenced
     * broker is not taken back on the strength of its last fetch; the controller would refuse it), and without
     * those a test holds {@code heldOut}. Marks a change pending.
     */
    synchronized List<Integer> wantedIsr(long nowMs, long lagMs, long highWatermark, long leaderEpochStartOffset,
                                         Set<Integer> liveBrokers, Set<Integer> heldOut) {
        if (pendingIsr != null) {
            return null;
        }
        List<Integer> wanted = new ArrayList<>();
        wanted.add(leaderId);
        followers.forEach((id, follower) -> {
            if (heldOut.contains(id)) {
                return;
            }
            boolean inSync = isr.contains(id) ? nowMs - follower.lastCaughtUpMs <= lagMs
                    : follower.logEnd >= highWatermark && follower.logEnd >= leaderEpochStartOffset
                            && liveBrokers.contains(id);
            if (inSync) {
                wanted.add(id);
            }
        });
        if (new HashSet<>(wanted).equals(new HashSet<>(isr))) {
            return null;
        }
        pendingIsr = List.copyOf(wanted);
        return wanted;
    }

    /**
     * Takes the ISR of an image of this leader's term when the controller shrank it by fencing brokers: only when
     * no change of ours is pending and the image's ISR is ours without some members that are not live in that image
     * (the controller removes nothing else). The image carries no partition epoch to order it against our own
     * changes, so a member one of ours took in within {@code imageMaxAgeMs} (the longest an image can take from
     * the controller to here) stays until a later image confirms its removal: the image may predate the change.
     * Ours becomes unknown (-1), which the controller does not check. Returns whether the ISR changed.
     */
    synchronized boolean takeFencingShrink(List<Integer> imageIsr, Set<Integer> liveBrokers, long nowMs,
                                           long imageMaxAgeMs) {
        if (pendingIsr != null || !imageIsr.contains(leaderId) || !isr.containsAll(imageIsr)
                || imageIsr.size() == isr.size()) {
            return false;
        }
        for (int removed : isr) {
            if (imageIsr.contains(removed)) {
                continue;
            }
            Follower follower = followers.get(removed);
            boolean recentlyAdded = follower != null && follower.addedToIsrMs >= 0
                    && nowMs - follower.addedToIsrMs <= imageMaxAgeMs;
            if (liveBrokers.contains(removed) || recentlyAdded) {
                return false;
            }
        }
        isr = List.copyOf(imageIsr);
        partitionEpoch = -1;
        return true;
    }

    /**
     * The least log start over the leader's ({@code leaderLogStart}) and those of the followers among
     * {@code liveBrokers}; a follower not heard from yet counts as -1 (unknown).
     */
    synchronized long lowWatermark(long leaderLogStart, Set<Integer> liveBrokers) {
        long least = leaderLogStart;
        for (Map.Entry<Integer, Follower> follower : followers.entrySet()) {
            if (liveBrokers.contains(follower.getKey())) {
                least = Math.min(least, follower.getValue().logStart);
            }
        }
        return least;
    }

    /** The broker epoch a follower last fetched with, -1 if unknown (no fetch yet, or one without it). */
    synchronized long brokerEpoch(int replicaId) {
        Follower follower = followers.get(replicaId);
        return follower == null ? -1 : follower.brokerEpoch;
    }

    /** Whether {@code change} is the ISR change pending, to be sent again: not one refused until metadata arrives. */
    synchronized boolean isPending(List<Integer> change) {
        return pendingIsr != null && pendingIsr.equals(change) && !awaitingMetadata;
    }

    /**
     * The controller refused the pending change for a reason only newer metadata can mend: no other change is
     * asked for, and the high watermark keeps waiting for the maximal ISR, until {@link #metadataArrived}.
     */
    synchronized void awaitMetadata(boolean partitionEpochStale) {
        awaitingMetadata = pendingIsr != null;
        this.partitionEpochStale = partitionEpochStale;
    }

    /** An image of this leader's term arrived: a change refused for want of metadata is dropped, to be asked anew. */
    synchronized void metadataArrived() {
        if (!awaitingMetadata) {
            return;
        }
        awaitingMetadata = false;
        pendingIsr = null;
        if (partitionEpochStale) {
            partitionEpoch = -1;
        }
    }

    /** The controller's answer to the pending change: the ISR and partition epoch it now has, or null (refused). */
    synchronized void changeAnswered(List<Integer> newIsr, int newPartitionEpoch, long nowMs) {
        pendingIsr = null;
        if (newIsr != null) {
            for (int member : newIsr) {
                if (!isr.contains(member) && followers.containsKey(member)) {
                    followers.get(member).addedToIsrMs = nowMs;
                }
            }
            isr = List.copyOf(newIsr);
            partitionEpoch = newPartitionEpoch;
        }
    }
}
