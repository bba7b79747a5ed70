package io.minibroker.broker.controller;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
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

    /** A registered broker: its endpoints, its epoch, and when it last heartbeat. */
    public record RegisteredBroker(int id, UUID incarnationId, long epoch, List<Endpoint> listeners,
                                   long lastHeartbeatMs, boolean fenced) {
    }

    /** What a registration answers: an error, or the broker's epoch. */
    public record Registration(Errors error, long epoch) {
    }

    /** What a heartbeat answers. */
    public record Heartbeat(Errors error, boolean fenced, boolean shouldShutDown) {
    }

    private final long sessionTimeoutMs;
    private final LongSupplier clockMs;
    /** Told when a broker becomes live or stops being live, which changes the image ({@link ImageVersion#changed}). */
    private final Runnable onLivenessChange;
    private final Map<Integer, RegisteredBroker> brokers = new TreeMap<>();
    /** Broker epochs only grow, so a message with an older incarnation's epoch is always recognised as stale. */
    private long lastEpoch;

    /** {@code onLivenessChange} runs under this object's lock, after the change, so it must not wait. */
    public BrokerMembership(long sessionTimeoutMs, LongSupplier clockMs, Runnable onLivenessChange) {
        this.sessionTimeoutMs = sessionTimeoutMs;
        this.clockMs = clockMs;
        this.onLivenessChange = onLivenessChange;
    }

    /**
     * Registers a broker. The same incarnation registering again (a retry) gets its epoch back; another
     * incarnation of a live broker is refused with DUPLICATE_BROKER_REGISTRATION, as in Kafka, so that two
     * processes cannot share a node id; another incarnation of a fenced one replaces it with a new epoch.
     * A broker starts fenced and is unfenced by its first heartbeat.
     */
    public synchronized Registration register(int id, UUID incarnationId, List<Endpoint> listeners) {
        long now = clockMs.getAsLong();
        RegisteredBroker existing = brokers.get(id);
        if (existing != null && existing.incarnationId().equals(incarnationId)) {
            return new Registration(Errors.NONE, existing.epoch());
        }
        if (existing != null && isLive(existing, now)) {
            return new Registration(Errors.DUPLICATE_BROKER_REGISTRATION, -1);
        }
        RegisteredBroker registered = new RegisteredBroker(id, incarnationId, ++lastEpoch, List.copyOf(listeners),
                now, true);
        brokers.put(id, registered);
        return new Registration(Errors.NONE, registered.epoch());
    }

    /**
     * A heartbeat from a registered broker: keeps its session, unfences it unless it asks to be fenced, and
     * fences it at once when it is shutting down (ShouldShutDown: {@link BrokerHeartbeatHandler} moves its leaders
     * before it answers).
     */
    public synchronized Heartbeat heartbeat(int id, long epoch, boolean wantFence, boolean wantShutDown) {
        RegisteredBroker existing = brokers.get(id);
        if (existing == null) {
            return new Heartbeat(Errors.BROKER_ID_NOT_REGISTERED, true, false);
        }
        if (existing.epoch() != epoch) {
            return new Heartbeat(Errors.STALE_BROKER_EPOCH, true, false);
        }
        boolean fenced = wantFence || wantShutDown;
        long now = clockMs.getAsLong();
        boolean wasLive = isLive(existing, now);
        RegisteredBroker updated = new RegisteredBroker(id, existing.incarnationId(), epoch, existing.listeners(),
                now, fenced);
        brokers.put(id, updated);
        if (isLive(updated, now) != wasLive) {
            onLivenessChange.run();
        }
        return new Heartbeat(Errors.NONE, fenced, wantShutDown);
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
                brokers.put(broker.id(), new RegisteredBroker(broker.id(), broker.incarnationId(), broker.epoch(),
                        broker.listeners(), broker.lastHeartbeatMs(), true));
                changed = true;
            }
        }
        if (changed) {
            onLivenessChange.run();
        }
    }

    /** The ids of the registered brokers, fenced or not, and of the live ones, both ascending and of one moment. */
    public record BrokerIds(List<Integer> registered, List<Integer> live) {
    }

    /** Every registered broker's id and the ids of the {@link #liveBrokers}, read together. */
    public synchronized BrokerIds ids() {
        long now = clockMs.getAsLong();
        return new BrokerIds(List.copyOf(brokers.keySet()),
                brokers.values().stream().filter(broker -> isLive(broker, now)).map(RegisteredBroker::id).toList());
    }

    /** The brokers that are unfenced and heartbeat within the session timeout, by id. */
    public synchronized List<RegisteredBroker> liveBrokers() {
        long now = clockMs.getAsLong();
        return brokers.values().stream().filter(broker -> isLive(broker, now)).toList();
    }

    /** The registered brokers that are not live (fenced, or past their session), by id. */
    public synchronized List<RegisteredBroker> fencedBrokers() {
        long now = clockMs.getAsLong();
        return brokers.values().stream().filter(broker -> !isLive(broker, now)).toList();
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
     * that expired). A broker that has not registered since the controller started is not known to be fenced.
     */
    public synchronized boolean isFenced(int id) {
        RegisteredBroker broker = brokers.get(id);
        return broker != null && !isLive(broker, clockMs.getAsLong());
    }

    private boolean isLive(RegisteredBroker broker, long now) {
        return !broker.fenced() && now - broker.lastHeartbeatMs() <= sessionTimeoutMs;
    }
}
