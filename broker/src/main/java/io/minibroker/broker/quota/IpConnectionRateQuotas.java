package io.minibroker.broker.quota;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The ips' {@code connection_creation_rate} quotas (KIP-612), as Kafka's ConnectionQuotas keeps them: an ip entity's
 * name stands for the address it resolves to when the quota is set, the default ip entity for every other address;
 * each address's new connections are a rate over {@code quota.window.num} windows of
 * {@code quota.window.size.seconds}, and a connection that takes it above the quota is throttled for Kafka's time.
 */
public final class IpConnectionRateQuotas {

    private static final Logger LOG = LoggerFactory.getLogger(IpConnectionRateQuotas.class);

    /** The quotas by address and the default ip's, resolved when the quotas change. */
    private record Bounds(Map<InetAddress, Double> byAddress, Double byDefault) {
    }

    private final ClientQuotas quotas;
    private final LongSupplier clockMs;
    private final RateTable<InetAddress> rates;
    /**
     * Replaced whole by {@link #resolve}, which runs where the quotas change (the disk thread of an AlterClientQuotas,
     * the thread that installs an image), never on the event loop that accepts a connection: a name may take a DNS
     * lookup, as Kafka resolves ip entities when it applies a quota, not when a connection comes.
     */
    private volatile Bounds bounds = new Bounds(Map.of(), null);
    /** Serializes {@link #resolve}, so that the last to run read the newest quotas; not the accepting lock. */
    private final Object resolving = new Object();

    public IpConnectionRateQuotas(ClientQuotas quotas, LongSupplier clockMs, int samples, int windowSeconds) {
        this.quotas = quotas;
        this.clockMs = clockMs;
        this.rates = new RateTable<>(samples, windowSeconds * 1000L);
        resolve();
        quotas.onChange(this::resolve);
    }

    /** Records a new connection from {@code address}; returns how long it is throttled for, 0 if within quota. */
    public synchronized int recordAndGetThrottleTimeMs(InetAddress address) {
        Bounds current = bounds;
        Double bound = current.byAddress().getOrDefault(address, current.byDefault());
        if (bound == null) {
            rates.remove(address); // a quota removed: its address starts afresh if one is set again
            return 0;
        }
        long now = clockMs.getAsLong();
        return rates.get(address, now).recordAndGetThrottleTimeMs(1, bound, now);
    }

    private void resolve() {
        synchronized (resolving) {
            bounds = resolved(quotas.all());
        }
    }

    private static Bounds resolved(Map<QuotaEntity, Map<String, Double>> all) {
        Map<InetAddress, Double> resolved = new HashMap<>();
        Double fallback = null;
        for (Map.Entry<QuotaEntity, Map<String, Double>> entry : all.entrySet()) {
            Double bound = entry.getValue().get(QuotaConfig.IP_CONNECTION_RATE);
            if (bound == null || !entry.getKey().entries().containsKey(QuotaEntity.IP)) {
                continue;
            }
            String ip = entry.getKey().entries().get(QuotaEntity.IP);
            if (ip == null) {
                fallback = bound;
                continue;
            }
            try {
                resolved.put(InetAddress.getByName(ip), bound);
            } catch (UnknownHostException e) { // resolved when it was set, not now: not applied, as Kafka's
                LOG.warn("The connection_creation_rate quota of ip {} is not applied: it does not resolve", ip);
            }
        }
        return new Bounds(Map.copyOf(resolved), fallback);
    }
}
