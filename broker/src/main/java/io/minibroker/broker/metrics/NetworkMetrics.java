package io.minibroker.broker.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.minibroker.broker.security.SaslSession;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.schema.ErrorCodes;
import io.minibroker.protocol.schema.Struct;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;

/**
 * The network layer's meters, named so that the Prometheus names are those Kafka's JMX exporter gives the same
 * Kafka metrics, and dashboards and alerts written for Kafka read them:
 * <pre>
 *   kafka.network.requestmetrics.requests       counter  request          RequestMetrics RequestsPerSec
 *   kafka.network.requestmetrics.errors         counter  request, error   RequestMetrics ErrorsPerSec (NONE too)
 *   kafka.network.requestmetrics.totaltime      timer    request          RequestMetrics TotalTimeMs (taken up to written)
 *   kafka.server.socket.server.metrics.incoming.byte  counter  listener   socket-server-metrics incoming-byte-total
 *   kafka.server.socket.server.metrics.outgoing.byte  counter  listener   socket-server-metrics outgoing-byte-total
 *   kafka.server.socket.server.metrics.connection.count  gauge  listener  socket-server-metrics connection-count
 *   kafka.server.socket.server.metrics.expired.connections.killed.count  counter  listener
 *                                                   socket-server-metrics expired-connections-killed-count
 *                                                   (connections closed at a request past their SASL session)
 *   kafka.server.socket.server.metrics.successful.authentication  counter  listener
 *                                                   socket-server-metrics successful-authentication-total
 *   kafka.server.socket.server.metrics.failed.authentication  counter  listener
 *                                                   socket-server-metrics failed-authentication-total
 *   kafka.server.socket.server.metrics.successful.reauthentication  counter  listener
 *                                                   socket-server-metrics successful-reauthentication-total (KIP-368)
 *   kafka.server.socket.server.metrics.failed.reauthentication  counter  listener
 *                                                   socket-server-metrics failed-reauthentication-total
 *   kafka.server.socket.server.metrics.successful.authentication.no.reauth  counter  listener
 *                                                   socket-server-metrics successful-authentication-no-reauth-total
 *   kafka.server.socket.server.metrics.reauthentication.latency.max  gauge  listener
 *                                                   socket-server-metrics reauthentication-latency-max (ms)
 *   kafka.server.socket.server.metrics.reauthentication.latency.avg  gauge  listener
 *                                                   socket-server-metrics reauthentication-latency-avg (ms)
 *   minibroker.network.requests.waiting         gauge    listener         none (requests read that wait for an
 *                                                                        earlier one of their connection)
 * </pre>
 * Kafka's RequestsPerSec also carries the request's version, which these do not. Kafka's socket-server-metrics also
 * carry a {@code networkProcessor} tag, its listener's processor thread; here a connection is served by one of the
 * broker's Netty event loops, shared by every listener, so the series are per listener only (Kafka's summed over
 * its processors). Kafka's Meters ({@code -rate} and {@code -total}) are exported as their total, a counter whose
 * {@code rate()} is the rate. An error series is created the
 * first time its request answers that error, as Kafka's are; everything else up front, so recording allocates
 * nothing once a series exists. One instance per listener, with a request series for each API the listener serves,
 * as Kafka registers the broker's or the controller's APIs by listener type (two listeners serving one API share
 * its series).
 */
public final class NetworkMetrics implements SaslSession.Outcomes {

    private final MeterRegistry registry;
    private final Map<ApiKey, Counter> requests = new EnumMap<>(ApiKey.class);
    private final Map<ApiKey, Timer> totalTimes = new EnumMap<>(ApiKey.class);
    private final Map<ApiKey, ErrorCounts> errors = new EnumMap<>(ApiKey.class);
    private final Counter incomingBytes;
    private final Counter outgoingBytes;
    private final Counter expiredConnectionsKilled;
    private final Counter successfulAuthentications;
    private final Counter failedAuthentications;
    private final Counter successfulReauthentications;
    private final Counter failedReauthentications;
    private final Counter authenticationsWithoutReauthentication;
    /** Kafka's Avg and Max of the re-authentications' latency, over its metrics' default windows. */
    private final SampledStat reauthenticationLatency = SampledStat.kafkaDefault();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger waitingRequests = new AtomicInteger();
    private final BrokerClock clock;

    public NetworkMetrics(MeterRegistry registry, String listenerName, Collection<ApiKey> servedApis,
                          BrokerClock clock) {
        this.registry = registry;
        this.clock = clock;
        for (ApiKey api : servedApis) {
            String request = requestName(api);
            requests.put(api, Counter.builder("kafka.network.requestmetrics.requests").tag("request", request)
                    .description("Requests received").register(registry));
            totalTimes.put(api, Timer.builder("kafka.network.requestmetrics.totaltime").tag("request", request)
                    .description("Time from a request's arrival to its response being written").register(registry));
            errors.put(api, new ErrorCounts(request));
        }
        incomingBytes = Counter.builder("kafka.server.socket.server.metrics.incoming.byte")
                .tag("listener", listenerName).register(registry);
        outgoingBytes = Counter.builder("kafka.server.socket.server.metrics.outgoing.byte")
                .tag("listener", listenerName).register(registry);
        expiredConnectionsKilled = socketServerCounter(registry, listenerName, "expired.connections.killed.count",
                "Connections closed at a request that came after their SASL session ended");
        successfulAuthentications = socketServerCounter(registry, listenerName, "successful.authentication",
                "connections with successful authentication");
        failedAuthentications = socketServerCounter(registry, listenerName, "failed.authentication",
                "connections with failed authentication");
        successfulReauthentications = socketServerCounter(registry, listenerName, "successful.reauthentication",
                "successful re-authentication of connections");
        failedReauthentications = socketServerCounter(registry, listenerName, "failed.reauthentication",
                "failed re-authentication of connections");
        authenticationsWithoutReauthentication = socketServerCounter(registry, listenerName,
                "successful.authentication.no.reauth",
                "Connections with successful authentication where the client does not support re-authentication");
        Gauge.builder("kafka.server.socket.server.metrics.reauthentication.latency.max", reauthenticationLatency,
                        latency -> latency.max(clock.monotonicMs()))
                .tag("listener", listenerName).description("The max latency observed due to re-authentication")
                .register(registry);
        Gauge.builder("kafka.server.socket.server.metrics.reauthentication.latency.avg", reauthenticationLatency,
                        latency -> latency.average(clock.monotonicMs()))
                .tag("listener", listenerName).description("The average latency observed due to re-authentication")
                .register(registry);
        Gauge.builder("kafka.server.socket.server.metrics.connection.count", connections, AtomicInteger::get)
                .tag("listener", listenerName).description("Open connections").register(registry);
        Gauge.builder("minibroker.network.requests.waiting", waitingRequests, AtomicInteger::get)
                .tag("listener", listenerName)
                .description("Requests read that wait for an earlier request of their connection to be answered")
                .register(registry);
    }

    /** A listener's counter of Kafka's socket-server-metrics, {@code metric} in the meter's dotted form. */
    private static Counter socketServerCounter(MeterRegistry registry, String listenerName, String metric,
                                               String description) {
        return Counter.builder("kafka.server.socket.server.metrics." + metric).tag("listener", listenerName)
                .description(description).register(registry);
    }

    /**
     * Requests read that wait for an earlier request of their connection to be answered ({@code count} below 0:
     * that many went to their handlers, or were dropped with their connection). Kafka has none to count: it leaves
     * them unread, its channel muted.
     */
    public void requestsWaiting(int count) {
        waitingRequests.addAndGet(count);
    }

    /** Kafka's request name: {@code API_VERSIONS} becomes {@code ApiVersions}. */
    static String requestName(ApiKey api) {
        StringBuilder name = new StringBuilder();
        for (String word : api.name().split("_")) {
            name.append(word.charAt(0)).append(word.substring(1).toLowerCase(Locale.ROOT));
        }
        return name.toString();
    }

    /**
     * When a request is taken up, on the broker's clock: what {@link #responseWritten} measures from. That is when
     * its frame arrived, or for one queued behind an earlier request of its connection, when that one was answered.
     */
    public long receivedNanos() {
        return clock.monotonicNanos();
    }

    public void requestReceived(ApiKey api, int frameBytes) {
        requests.get(api).increment();
        incomingBytes.increment(frameBytes);
    }

    /** Counts the response's error codes ({@link ErrorCodes}: every {@code ErrorCode} field at any depth). */
    public void responseErrors(ApiKey api, short version, Struct response) {
        ErrorCodes.forEach(response, version, errors.get(api));
    }

    public void responseWritten(ApiKey api, long receivedNanos, int responseBytes) {
        totalTimes.get(api).record(clock.monotonicNanos() - receivedNanos, TimeUnit.NANOSECONDS);
        outgoingBytes.increment(responseBytes);
    }

    /**
     * One request's error series, by error; a series is registered the first time its error is answered. Indexed by
     * the error's ordinal, so counting a response's codes takes no hashing and no boxing; a code Kafka does not
     * define counts as UNKNOWN_SERVER_ERROR, as {@link Errors#forCode} reads it.
     */
    private final class ErrorCounts implements IntConsumer {
        private final String request;
        private final AtomicReferenceArray<Counter> byError = new AtomicReferenceArray<>(Errors.values().length);

        ErrorCounts(String request) {
            this.request = request;
        }

        @Override
        public void accept(int code) {
            Errors error = Errors.forCode((short) code);
            Counter counter = byError.get(error.ordinal());
            if (counter == null) {
                // Two threads may both build it; Micrometer returns the one meter registered under these tags.
                counter = Counter.builder("kafka.network.requestmetrics.errors").tag("request", request)
                        .tag("error", error.name()).description("Error codes answered, NONE included")
                        .register(registry);
                byError.set(error.ordinal(), counter);
            }
            counter.increment();
        }
    }

    /** A connection closed at a request past its SASL session's end (KIP-368). */
    public void expiredConnectionKilled() {
        expiredConnectionsKilled.increment();
    }

    /**
     * A connection's first authentication (its SASL exchange, or on an SSL listener its TLS handshake), as Kafka's
     * selector counts it once its channel is ready: also in successful-authentication-no-reauth-total if the client
     * cannot re-authenticate. A PLAINTEXT connection is never counted: Kafka's channel is ready from the start.
     */
    @Override
    public void authenticated(boolean clientSupportsReauthentication) {
        successfulAuthentications.increment();
        if (!clientSupportsReauthentication) {
            authenticationsWithoutReauthentication.increment();
        }
    }

    /**
     * A connection's first authentication failed (a SASL step refused, or a TLS handshake failed), as Kafka's selector
     * counts the AuthenticationException its channel's preparation throws before the first success.
     */
    @Override
    public void authenticationFailed() {
        failedAuthentications.increment();
    }

    @Override
    public void reauthenticated(long latencyMs) {
        successfulReauthentications.increment();
        reauthenticationLatency.record(latencyMs, clock.monotonicMs());
    }

    @Override
    public void reauthenticationFailed() {
        failedReauthentications.increment();
    }

    public void connectionOpened() {
        connections.incrementAndGet();
    }

    public void connectionClosed() {
        connections.decrementAndGet();
    }
}
