package io.minibroker.broker.network;

import java.net.InetAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * Kafka's connection quotas: {@code max.connections} over all listeners and each listener's
 * {@code listener.name.<l>.max.connections} (which defaults to it), {@code max.connections.per.ip} (with
 * {@code max.connections.per.ip.overrides}, by address or host name) and {@code max.connection.creation.rate} (new
 * connections a second; Kafka delays the accept past it, here the connection is refused), plus a cap of its own
 * on connections of SASL listeners that have not authenticated yet. A refused connection is closed at once by
 * {@link ChannelSetup}, with a log line naming the limit.
 */
public final class ConnectionQuotas {

    private final int maxConnections;
    private final ToIntFunction<String> listenerMaxConnections;
    private final Map<String, Integer> byListener = new HashMap<>();
    private final int maxPerIp;
    private final Map<String, Integer> perIpOverrides;
    private final int maxCreationRate;
    private final int maxUnauthenticated;
    private final LongSupplier monotonicMs;
    private final Map<InetAddress, Integer> byAddress = new HashMap<>();
    private int total;
    private int unauthenticated;
    private long windowStartMs = Long.MIN_VALUE;
    private int createdInWindow;

    public ConnectionQuotas(int maxConnections, ToIntFunction<String> listenerMaxConnections, int maxPerIp, Map<String, Integer> perIpOverrides,
                            int maxCreationRate, int maxUnauthenticated, LongSupplier monotonicMs) {
        this.maxConnections = maxConnections;
        this.listenerMaxConnections = listenerMaxConnections;
        this.maxPerIp = maxPerIp;
        this.perIpOverrides = perIpOverrides;
        this.maxCreationRate = maxCreationRate;
        this.maxUnauthenticated = maxUnauthenticated;
        this.monotonicMs = monotonicMs;
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

    private int limitFor(InetAddress address) {
        Integer byIp = perIpOverrides.get(address.getHostAddress());
        if (byIp != null) {
            return byIp;
        }
        // A host name in the overrides: the name the address was reached by, never a reverse lookup per connection.
        String name = address.toString();
        int slash = name.indexOf('/');
        Integer byName = slash > 0 ? perIpOverrides.get(name.substring(0, slash)) : null;
        return byName != null ? byName : maxPerIp;
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
