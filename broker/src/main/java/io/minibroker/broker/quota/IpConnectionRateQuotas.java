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

    private final ClientQuotas quotas;
    private final LongSupplier clockMs;
    private final RateTable<InetAddress> rates;
    /** The quotas by address, resolved once per change of the quotas (the map, by identity). */
    private Map<QuotaEntity, Map<String, Double>> resolvedFrom;
    private Map<InetAddress, Double> byAddress = Map.of();
    private Double byDefault;

    public IpConnectionRateQuotas(ClientQuotas quotas, LongSupplier clockMs, int samples, int windowSeconds) {
        this.quotas = quotas;
        this.clockMs = clockMs;
        this.rates = new RateTable<>(samples, windowSeconds * 1000L);
    }

    /** Records a new connection from {@code address}; returns how long it is throttled for, 0 if within quota. */
    public synchronized int recordAndGetThrottleTimeMs(InetAddress address) {
        resolve();
        Double bound = byAddress.getOrDefault(address, byDefault);
        if (bound == null) {
            rates.remove(address); // a quota removed: its address starts afresh if one is set again
            return 0;
        }
        long now = clockMs.getAsLong();
        return rates.get(address, now).recordAndGetThrottleTimeMs(1, bound, now);
    }

    private void resolve() {
        Map<QuotaEntity, Map<String, Double>> all = quotas.all();
        if (all == resolvedFrom) {
            return;
        }
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
        byAddress = resolved;
        byDefault = fallback;
        resolvedFrom = all;
    }
}
