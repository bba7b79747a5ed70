package io.minibroker.broker.network;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * Kafka's connection quotas: {@code max.connections} over all listeners and each listener's
 * {@code listener.name.<l>.max.connections} (which defaults to it), {@code max.connections.per.ip} (with
 * {@code max.connections.per.ip.overrides}, by address, host names resolved at the start) and {@code max.connection.creation.rate} (new
 * connections a second; Kafka delays the accept past it, here the connection is refused), the ips'
 * {@code connection_creation_rate} client quotas (Kafka holds a connection over one and closes it once its throttle
 * time has passed; here it is refused at once), plus a cap of its own
 * on connections of SASL listeners that have not authenticated yet. A refused connection is closed at once by
 * {@link ChannelSetup}, with a log line naming the limit.
 */
public final class ConnectionQuotas {

    private final int maxConnections;
    private final ToIntFunction<String> listenerMaxConnections;
    private final Map<String, Integer> byListener = new HashMap<>();
    private final int maxPerIp;
    private final Map<InetAddress, Integer> perIpOverrides;
    private final int maxCreationRate;
    private final int maxUnauthenticated;
    private final LongSupplier monotonicMs;
    /** Records a new connection against its address's {@code connection_creation_rate}; its throttle time. */
    private final ToIntFunction<InetAddress> ipConnectionRate;
    private final Map<InetAddress, Integer> byAddress = new HashMap<>();
    private int total;
    private int unauthenticated;
    private long windowStartMs = Long.MIN_VALUE;
    private int createdInWindow;

    /**
     * @param perIpOverrides   {@code max.connections.per.ip.overrides} resolved, see {@link #resolve}
     * @param ipConnectionRate records a connection against the ips' {@code connection_creation_rate} client quotas
     *                         and returns how long Kafka would throttle it for, 0 within the quota
     */
    public ConnectionQuotas(int maxConnections, ToIntFunction<String> listenerMaxConnections, int maxPerIp,
                            Map<InetAddress, Integer> perIpOverrides,
                            int maxCreationRate, int maxUnauthenticated, LongSupplier monotonicMs,
                            ToIntFunction<InetAddress> ipConnectionRate) {
        this.maxConnections = maxConnections;
        this.listenerMaxConnections = listenerMaxConnections;
        this.maxPerIp = maxPerIp;
        this.perIpOverrides = perIpOverrides;
        this.maxCreationRate = maxCreationRate;
        this.maxUnauthenticated = maxUnauthenticated;
        this.monotonicMs = monotonicMs;
        this.ipConnectionRate = ipConnectionRate;
    }

    /** Counts a new connection in, or returns the limit that refuses it (and counts nothing). */
    public synchronized String tryAccept(String listener, InetAddress address, boolean unauthenticated) {
        long now = monotonicMs.getAsLong();
        if (now - windowStartMs >= 1000 || windowStartMs == Long.MIN_VALUE) {
            windowStartMs = now;
            createdInWindow = 0;
        }
        if (createdInWindow >= maxCreationRate) {
            return "max.connection.creation.rate (" + maxCreationRate + ")";
        }
        if (total >= maxConnections) {
            return "max.connections (" + maxConnections + ")";
        }
        int onListener = byListener.getOrDefault(listener, 0);
        int listenerLimit = listenerMaxConnections.applyAsInt(listener);
        if (onListener >= listenerLimit) {
            return "max.connections of listener " + listener + " (" + listenerLimit + ")";
        }
        // Recorded where Kafka's ConnectionQuotas.inc records it: past the broker-wide limits, before the ip's count.
        int throttleMs = ipConnectionRate.applyAsInt(address);
        if (throttleMs > 0) {
            return "connection_creation_rate quota of " + address.getHostAddress() + " (Kafka would throttle it "
                    + throttleMs + " ms)";
        }
        int fromAddress = byAddress.getOrDefault(address, 0);
        int perIp = limitFor(address);
        if (fromAddress >= perIp) {
            return "max.connections.per.ip (" + perIp + " for " + address.getHostAddress() + ")";
        }
        if (unauthenticated && this.unauthenticated >= maxUnauthenticated) {
            return "unauthenticated.max.connections (" + maxUnauthenticated + ")";
        }
        createdInWindow++;
        total++;
        byAddress.put(address, fromAddress + 1);
        byListener.put(listener, onListener + 1);
        if (unauthenticated) {
            this.unauthenticated++;
        }
        return null;
    }

    /**
     * The overrides' hosts as addresses, each resolved once, as Kafka's ConnectionQuotas does: a host name stands
     * for the address it resolves to now, and any spelling of an address (IPv6's {@code ::1} and
     * {@code 0:0:0:0:0:0:0:1}) is that address; connections are then matched by address, never by a lookup each.
     */
    public static Map<InetAddress, Integer> resolve(Map<String, Integer> overrides) throws UnknownHostException {
        Map<InetAddress, Integer> byAddress = new HashMap<>();
        for (Map.Entry<String, Integer> override : overrides.entrySet()) {
            byAddress.put(InetAddress.getByName(override.getKey()), override.getValue());
        }
        return Map.copyOf(byAddress);
    }

    private int limitFor(InetAddress address) {
        return perIpOverrides.getOrDefault(address, maxPerIp);
    }

    /** A counted unauthenticated connection authenticated. */
    public synchronized void authenticated() {
        unauthenticated--;
    }

    /** A counted connection closed; {@code unauthenticated} if it never authenticated. */
    public synchronized void closed(String listener, InetAddress address, boolean unauthenticated) {
        total--;
        byListener.computeIfPresent(listener, (l, n) -> n == 1 ? null : n - 1);
        byAddress.computeIfPresent(address, (a, n) -> n == 1 ? null : n - 1);
        if (unauthenticated) {
            this.unauthenticated--;
        }
    }

    public synchronized int connections() {
        return total;
    }

    public synchronized int unauthenticatedConnections() {
        return unauthenticated;
    }
}
