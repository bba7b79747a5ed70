package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.message.ApiKey;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The network layer's meters, named after Kafka's metrics of the same meaning so dashboards translate:
 * <pre>
 *   kafka.network.requests             counter  per request type    Kafka's RequestMetrics RequestsPerSec
 *   kafka.network.request.total.time   timer    per request type    RequestMetrics TotalTimeMs (read to response written)
 *   kafka.network.incoming.bytes       counter  per listener        the selector's incoming-byte-total
 *   kafka.network.outgoing.bytes       counter  per listener        the selector's outgoing-byte-total
 *   kafka.network.connections          gauge    per listener        the selector's connection-count
 * </pre>
 * Meters are created up front, so recording allocates nothing. One instance per listener, with a request series
 * for each API the listener serves, as Kafka registers the broker's or the controller's APIs by listener type
 * (two listeners serving one API share its series).
 */
public final class NetworkMetrics {

    private final Map<ApiKey, Counter> requests = new EnumMap<>(ApiKey.class);
    private final Map<ApiKey, Timer> totalTimes = new EnumMap<>(ApiKey.class);
    private final Counter incomingBytes;
    private final Counter outgoingBytes;
    private final AtomicInteger connections = new AtomicInteger();
    private final BrokerClock clock;

    public NetworkMetrics(MeterRegistry registry, String listenerName, Collection<ApiKey> servedApis,
                          BrokerClock clock) {
        this.clock = clock;
        for (ApiKey api : servedApis) {
            String request = requestName(api);
            requests.put(api, Counter.builder("kafka.network.requests").tag("request", request)
                    .description("Requests received").register(registry));
            totalTimes.put(api, Timer.builder("kafka.network.request.total.time").tag("request", request)
                    .description("Time from a request's arrival to its response being written").register(registry));
        }
        incomingBytes = Counter.builder("kafka.network.incoming.bytes").tag("listener", listenerName)
                .baseUnit("bytes").register(registry);
        outgoingBytes = Counter.builder("kafka.network.outgoing.bytes").tag("listener", listenerName)
                .baseUnit("bytes").register(registry);
        Gauge.builder("kafka.network.connections", connections, AtomicInteger::get).tag("listener", listenerName)
                .description("Open connections").register(registry);
    }

    /** Kafka's request name: {@code API_VERSIONS} becomes {@code ApiVersions}. */
    static String requestName(ApiKey api) {
        StringBuilder name = new StringBuilder();
        for (String word : api.name().split("_")) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return name.toString();
    }

    /** When a request's frame arrived, on the broker's clock: what {@link #responseWritten} measures from. */
    public long receivedNanos() {
        return clock.monotonicNanos();
    }

    public void requestReceived(ApiKey api, int frameBytes) {
        requests.get(api).increment();
        incomingBytes.increment(frameBytes);
    }

    public void responseWritten(ApiKey api, long receivedNanos, int responseBytes) {
        totalTimes.get(api).record(clock.monotonicNanos() - receivedNanos, TimeUnit.NANOSECONDS);
        outgoingBytes.increment(responseBytes);
    }

    public void connectionOpened() {
        connections.incrementAndGet();
    }

    public void connectionClosed() {
        connections.decrementAndGet();
    }
}
