package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.broker.quorum.QuorumReport;
import io.minibroker.broker.quorum.ReplicaKey;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * How far each broker follows the controller's image, as Kafka's metadata leader tracks its observers: the version a
 * broker's last metadata fetch said it had applied, when that fetch came, and the last time a fetch found it caught
 * up (at the version the image had then). What DescribeQuorum lists as the observers.
 */
public final class MetadataFollowers {

    /**
     * How long a broker that stopped fetching is still listed: Kafka's metadata leader forgets an observer after five
     * minutes without a fetch (LeaderState's OBSERVER_SESSION_TIMEOUT_MS), so a broker gone for good leaves the list.
     */
    static final long OBSERVER_SESSION_TIMEOUT_MS = 300_000;

    private final LongSupplier wallClockMs;
    private final Map<Integer, QuorumReport.Replica> followers = new ConcurrentHashMap<>();

    public MetadataFollowers(LongSupplier wallClockMs) {
        this.wallClockMs = wallClockMs;
    }

    /**
     * Broker {@code brokerId} fetched, naming its metadata directory's id ({@link ReplicaKey#NO_DIRECTORY} for none),
     * having applied {@code appliedVersion} while the image is at {@code current}.
     */
    public void fetched(int brokerId, UUID directoryId, long appliedVersion, long current) {
        long now = wallClockMs.getAsLong();
        followers.compute(brokerId, (id, last) -> new QuorumReport.Replica(id, directoryId,
                appliedVersion, now, appliedVersion >= current ? now : last == null ? -1 : last.lastCaughtUpMs()));
    }

    /**
     * The quorum as the controller {@code leader} sees it now: itself the voter at the image's version, and as
     * observers every broker that has fetched but its own (the controller's node, the voter), within the last
     * {@link #OBSERVER_SESSION_TIMEOUT_MS}: older ones are forgotten here, as Kafka's leader clears them when it
     * answers DescribeQuorum.
     */
    public QuorumReport report(ReplicaKey leader, long imageVersion, List<Endpoint> leaderListeners) {
        long now = wallClockMs.getAsLong();
        followers.values().removeIf(replica -> now - replica.lastFetchMs() >= OBSERVER_SESSION_TIMEOUT_MS);
        List<QuorumReport.Replica> observers = followers.values().stream()
                .filter(replica -> replica.replicaId() != leader.id())
                .sorted(Comparator.comparingInt(QuorumReport.Replica::replicaId)).toList();
        return QuorumReport.leaderAlone(leader, imageVersion, now, observers, leaderListeners);
    }
}
