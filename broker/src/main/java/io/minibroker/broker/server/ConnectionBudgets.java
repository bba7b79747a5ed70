package io.minibroker.broker.server;

import io.micrometer.core.instrument.MeterRegistry;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.config.ConfigException;
import io.minibroker.broker.config.SecurityKeys;
import io.minibroker.broker.log.LogValidator;
import io.minibroker.broker.metrics.MemoryBudgetMeters;
import io.minibroker.broker.network.ConnectionLimits;
import io.minibroker.broker.network.ConnectionQuotas;
import io.minibroker.broker.quota.ClientQuotas;
import io.minibroker.broker.quota.IpConnectionRateQuotas;
import io.minibroker.broker.network.MemoryBudget;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.frame.Frames;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;

/**
 * The limits every listener shares (connections, and the memory of requests being read), made from the config,
 * with the gauges of every memory budget ({@link MemoryBudgetMeters}), decompression's included.
 */
final class ConnectionBudgets {

    private ConnectionBudgets() {
    }

    /** See docs/configuration.md for why queued.max.request.bytes' -1 is bounded here. */
    static ConnectionLimits of(BrokerConfig config, BrokerClock clock, MeterRegistry registry,
                               ClientQuotas clientQuotas) {
        long queued = config.get(BrokerConfig.QUEUED_MAX_REQUEST_BYTES);
        long largestFrame = config.get(BrokerConfig.SOCKET_REQUEST_MAX_BYTES) + (long) Frames.SIZE_PREFIX_BYTES;
        long requestBytes = queued == -1 ? Math.max(largestFrame, Runtime.getRuntime().maxMemory() / 4)
                : Math.max(largestFrame, queued);
        long unauthenticatedBytes = Math.max(config.get(BrokerConfig.UNAUTHENTICATED_MAX_REQUEST_BYTES),
                config.get(SecurityKeys.SASL_SERVER_MAX_RECEIVE_SIZE) + (long) Frames.SIZE_PREFIX_BYTES);
        ConnectionQuotas quotas = new ConnectionQuotas(config.get(BrokerConfig.MAX_CONNECTIONS), config::maxConnections,
                config.get(BrokerConfig.MAX_CONNECTIONS_PER_IP), perIpOverrides(config),
                config.get(BrokerConfig.MAX_CONNECTION_CREATION_RATE),
                config.get(BrokerConfig.UNAUTHENTICATED_MAX_CONNECTIONS), clock::monotonicMs,
                new IpConnectionRateQuotas(clientQuotas, clock::monotonicMs, config.get(BrokerConfig.QUOTA_WINDOW_NUM),
                        config.get(BrokerConfig.QUOTA_WINDOW_SIZE_SECONDS))::recordAndGetThrottleTimeMs);
        MemoryBudget requests = new MemoryBudget(requestBytes);
        MemoryBudget unauthenticated = new MemoryBudget(unauthenticatedBytes);
        MemoryBudgetMeters.bindTo(registry, new MemoryBudgetMeters.Budget("requests", requests::reserved, requestBytes),
                new MemoryBudgetMeters.Budget("unauthenticated-requests", unauthenticated::reserved,
                        unauthenticatedBytes),
                new MemoryBudgetMeters.Budget("decompression", LogValidator.inflationBudget()::inUse,
                        LogValidator.inflationBudget().limit()));
        return new ConnectionLimits(quotas, requests, unauthenticated);
    }

    /** A host that does not resolve stops the start, as it stops Kafka's (its SocketServer resolves them). */
    private static Map<InetAddress, Integer> perIpOverrides(BrokerConfig config) {
        Map<String, Integer> overrides = config.get(BrokerConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES);
        try {
            return ConnectionQuotas.resolve(overrides);
        } catch (UnknownHostException e) {
            throw new ConfigException(BrokerConfig.MAX_CONNECTIONS_PER_IP_OVERRIDES.name(), overrides,
                    "names a host that does not resolve (" + e.getMessage() + ")");
        }
    }
}
