package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.IntToLongFunction;
import java.util.function.LongSupplier;

/**
 * The controller's view of which brokers are in the cluster, as KRaft's BrokerHeartbeatManager and
 * ClusterControlManager keep it: a broker registers with an incarnation id (new at each start) and gets a broker
 * epoch; it heartbeats with that epoch; without a heartbeat for {@code broker.session.timeout.ms} it is fenced,
 * which is to say not live. Fencing is judged when asked, against the clock, so no thread is needed for it; the
 * image brokers follow learns of an expired session when {@link #fenceExpiredSessions} runs (as Kafka's controller
 * fences a stale broker from a periodic check). Thread-safe: every method holds this object's lock.
 */
public final class BrokerMembership {

    /**
     * A registered broker: its endpoints, its rack (null: none), its epoch, the image version it registered at
     * (Kafka's offset of its RegisterBrokerRecord), and when it last heartbeat.
     */
    public record RegisteredBroker(int id, UUID incarnationId, long epoch, List<Endpoint> listeners, String rack,
                                   long registeredAtVersion, long lastHeartbeatMs, boolean fenced) {

        RegisteredBroker registeredAt(long version) {
            return new RegisteredBroker(id, incarnationId, epoch, listeners, rack, version, lastHeartbeatMs, fenced);
        }

        RegisteredBroker withSession(long lastHeartbeatMs, boolean fenced) {
            return new RegisteredBroker(id, incarnationId, epoch, listeners, rack, registeredAtVersion,
                    lastHeartbeatMs, fenced);
        }
    }

    /** What a registration answers: an error, or the broker's epoch. */
    public record Registration(Errors error, long epoch) {
    }

    /** What a heartbeat answers; {@code caughtUp}: the broker has applied the image as it is now. */
    public record Heartbeat(Errors error, boolean caughtUp, boolean fenced, boolean shouldShutDown) {
    }

    private final long sessionTimeoutMs;
    private final LongSupplier clockMs;
    /** The version of the image brokers fetch ({@link ImageVersion#current}), which heartbeats report having. */
    private final LongSupplier imageVersion;
    /**
     * The version a broker's last metadata fetch to this controller said it had applied, -1 if none
     * ({@link ImageVersion#appliedBy(int)}): a heartbeat's own figure may be from the controller's previous life,
     * whose versions counted separately, if it comes before the broker's fetcher has noticed the restart.
     */
    private final IntToLongFunction fetchedVersion;
    /**
     * Told when a broker registers, becomes live or stops being live, which changes the image
     * ({@link ImageVersion#changed}).
     */
    private final Runnable onImageChange;
    private final Map<Integer, RegisteredBroker> brokers = new TreeMap<>();
    /**
     * Brokers unregistered (UnregisterBroker) and not registered since: taken for fenced, so that they leave the ISRs
     * as Kafka's controller takes them out when it unregisters one, where an id never registered is not.
     */
    private final Set<Integer> unregistered = new HashSet<>();
    /** Broker epochs only grow, so a message with an older incarnation's epoch is always recognised as stale. */
    private long lastEpoch;

    /** {@code onImageChange} runs under this object's lock, after the change, so it must not wait. */
    public BrokerMembership(long sessionTimeoutMs, LongSupplier clockMs, LongSupplier imageVersion,
                            IntToLongFunction fetchedVersion, Runnable onImageChange) {
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.clockMs = clockMs;
        this.imageVersion = imageVersion;
        this.fetchedVersion = fetchedVersion;
        this.onImageChange = onImageChange;
    }

    /**
     * Registers a broker. The same incarnation registering again (a retry) gets its epoch back; another
     * incarnation of a live broker is refused with DUPLICATE_BROKER_REGISTRATION, as in Kafka, so that two
     * processes cannot share a node id; another incarnation of a fenced one replaces it with a new epoch.
     * A broker starts fenced, registered at the version of the image that first has it, with its rack (null: none).
     */
    public synchronized Registration register(int id, UUID incarnationId, List<Endpoint> listeners, String rack) {
        long now = clockMs.getAsLong();
        RegisteredBroker existing = brokers.get(id);
        if (existing != null && existing.incarnationId().equals(incarnationId)) {
            return new Registration(Errors.NONE, existing.epoch());
        }
        if (existing != null && isLive(existing, now)) {
            return new Registration(Errors.DUPLICATE_BROKER_REGISTRATION, -1);
        }
        RegisteredBroker registered = new RegisteredBroker(id, incarnationId, ++lastEpoch, List.copyOf(listeners),
                rack, imageVersion.getAsLong(), now, true);
        brokers.put(id, registered);
        unregistered.remove(id);
        // The registration is in the image (a fenced broker, which DescribeCluster v2 lists), as Kafka's
        // RegisterBrokerRecord is in its log: the version moves on, and the broker must apply the one that has it.
        onImageChange.run();
        brokers.put(id, registered.registeredAt(imageVersion.getAsLong()));
        return new Registration(Errors.NONE, registered.epoch());
    }

    /**
     * A heartbeat from a registered broker, which has applied image version {@code currentMetadataOffset}: keeps
     * its session; fences it at once when it is shutting down (ShouldShutDown: {@link BrokerHeartbeatHandler}
     * moves its leaders before it answers) or asks to be fenced; unfences a fenced one only once it has applied
     * the image of its registration, as Kafka's BrokerHeartbeatManager waits for the broker's metadata offset to
     * reach its RegisterBrokerRecord's: until then it has no partitions' state to serve clients with. The
     * offset counts only as far as the broker's metadata fetches to this controller vouch for it: Kafka's offsets
     * mean the same across its controllers, but a restarted controller counts its versions afresh, and a
     * heartbeat sent before the broker's fetcher noticed the restart reports a version of the old life.
     */
    public synchronized Heartbeat heartbeat(int id, long epoch, long currentMetadataOffset, boolean wantFence,
                                            boolean wantShutDown) {
        RegisteredBroker existing = brokers.get(id);
        if (existing == null) {
            return new Heartbeat(Errors.BROKER_ID_NOT_REGISTERED, false, true, false);
        }
        if (existing.epoch() != epoch) {
            return new Heartbeat(Errors.STALE_BROKER_EPOCH, false, true, false);
        }
        long applied = Math.min(currentMetadataOffset, fetchedVersion.applyAsLong(id));
        // Against the image before this heartbeat's own change, as Kafka's against the offset committed before it.
        boolean caughtUp = applied >= imageVersion.getAsLong();
        boolean fenced = wantFence || wantShutDown || existing.fenced() && applied < existing.registeredAtVersion();
        long now = clockMs.getAsLong();
        boolean wasLive = isLive(existing, now);
        RegisteredBroker updated = existing.withSession(now, fenced);
        brokers.put(id, updated);
        if (isLive(updated, now) != wasLive) {
            onImageChange.run();
        }
        return new Heartbeat(Errors.NONE, caughtUp, fenced, wantShutDown);
    }

    /**
     * Forgets a broker's registration, live or not, as Kafka's controller does on UnregisterBroker (no check that it
     * has stopped): it is no longer in the image, and counts as fenced until it registers again. Answers false, and
     * changes nothing, if it is not registered.
     */
    public synchronized boolean unregister(int id) {
        if (brokers.remove(id) == null) {
            return false;
        }
        unregistered.add(id);
        onImageChange.run();
        return true;
    }

    /**
     * Marks fenced the brokers whose session has expired, telling of the change: they were not live already, but
     * the image brokers follow changed without a word when the session ran out. A later heartbeat unfences them.
     */
    public synchronized void fenceExpiredSessions() {
        long now = clockMs.getAsLong();
        boolean changed = false;
        for (RegisteredBroker broker : List.copyOf(brokers.values())) {
            if (!broker.fenced() && !isLive(broker, now)) {
                brokers.put(broker.id(), broker.withSession(broker.lastHeartbeatMs(), true));
                changed = true;
            }
        }
        if (changed) {
            onImageChange.run();
        }
    }

    /**
     * The ids of the registered brokers, fenced or not, and of the live ones, both ascending and of one moment; and
     * the racks of those registered with one, by id.
     */
    public record BrokerIds(List<Integer> registered, List<Integer> live, Map<Integer, String> racks) {
    }

    /** Every registered broker's id, the ids of the {@link #liveBrokers} and the racks, read together. */
    public synchronized BrokerIds ids() {
        long now = clockMs.getAsLong();
        Map<Integer, String> racks = new TreeMap<>();
        brokers.values().stream().filter(broker -> broker.rack() != null)
                .forEach(broker -> racks.put(broker.id(), broker.rack()));
        return new BrokerIds(List.copyOf(brokers.keySet()),
                brokers.values().stream().filter(broker -> isLive(broker, now)).map(RegisteredBroker::id).toList(),
                Map.copyOf(racks));
    }

    /** The brokers that are unfenced and heartbeat within the session timeout, by id. */
    public synchronized List<RegisteredBroker> liveBrokers() {
        long now = clockMs.getAsLong();
        return brokers.values().stream().filter(broker -> isLive(broker, now)).toList();
    }

    /** The registered brokers, live ones apart from the rest (fenced, or past their session), of one moment. */
    public record Registered(List<RegisteredBroker> live, List<RegisteredBroker> fenced) {
    }

    /** Every registered broker, by id, sorted into live and fenced under one lock and one clock reading. */
    public synchronized Registered registered() {
        long now = clockMs.getAsLong();
        List<RegisteredBroker> live = new ArrayList<>();
        List<RegisteredBroker> fenced = new ArrayList<>();
        for (RegisteredBroker broker : brokers.values()) {
            (isLive(broker, now) ? live : fenced).add(broker);
        }
        return new Registered(live, fenced);
    }

    /** Whether this broker is registered, unfenced and within its session. */
    public synchronized boolean isLive(int id) {
        RegisteredBroker broker = brokers.get(id);
        return broker != null && isLive(broker, clockMs.getAsLong());
    }

    /** The epoch of this broker's registration, -1 if it has none. */
    public synchronized long epoch(int id) {
        RegisteredBroker broker = brokers.get(id);
        return broker == null ? -1 : broker.epoch();
    }

    /**
     * Whether this broker registered with this controller and is fenced now (a controlled shutdown, or a session
     * that expired), or was unregistered. A broker that has not registered since the controller started is not known
     * to be fenced.
     */
    public synchronized boolean isFenced(int id) {
        RegisteredBroker broker = brokers.get(id);
        return broker != null ? !isLive(broker, clockMs.getAsLong()) : unregistered.contains(id);
    }

    private boolean isLive(RegisteredBroker broker, long now) {
        return !broker.fenced() && now - broker.lastHeartbeatMs() <= sessionTimeoutMs;
    }
}
