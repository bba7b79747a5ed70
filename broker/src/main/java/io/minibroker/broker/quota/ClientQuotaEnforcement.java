package io.minibroker.broker.quota;

import io.minibroker.broker.api.HandlerTime;
import io.minibroker.broker.metrics.QuotaMeters;
import io.minibroker.broker.metrics.SampledStat;
import io.minibroker.broker.time.BrokerClock;
import io.minibroker.protocol.frame.Frames;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.CreatePartitionsResponseView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.DeleteTopicsResponseView;
import io.minibroker.protocol.message.view.FetchRequestView;
import io.minibroker.protocol.message.view.FetchResponseView;
import io.minibroker.protocol.message.view.ProduceResponseView;
import io.minibroker.protocol.message.view.ShareFetchResponseView;
import io.minibroker.protocol.schema.Struct;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The client quotas of requests, as Kafka's KafkaApis applies them once a request is served: a Produce records its
 * request's size against {@code producer_byte_rate}, a consumer's Fetch or ShareFetch its response's size against
 * {@code consumer_byte_rate} (a follower's fetch is not a client's), and every request its time in its handler against
 * {@code request_percentage} (KIP-124, Kafka's ClientRequestQuotaManager). The throttle time goes into the response's
 * ThrottleTimeMs, and the connection is then muted for that long (KIP-219), which the request handler does; so it is
 * for the throttle time a CreateTopics, CreatePartitions or DeleteTopics answer carries ({@code controller_mutation_rate}).
 * Where two quotas throttle one answer, it carries the longer throttle, and the connection is muted that long, as
 * Kafka's; that quota's {@code throttle-time} records it, and its {@code queue-size} counts the connection while it is
 * muted. Kafka's Request {@code exempt-request-time} is kept here.
 */
public final class ClientQuotaEnforcement {

    /** Kafka's ClientRequestQuotaManager.NANOS_TO_PERCENTAGE_PER_SECOND: a second of one thread is 100 percent. */
    private static final double NANOS_TO_PERCENTAGE_PER_SECOND = 100.0 / TimeUnit.SECONDS.toNanos(1);
    private static final short FETCH_REPLICA_STATE_FROM_VERSION = 15;

    private final ClientQuotaManager produce;
    private final ClientQuotaManager fetch;
    private final ClientQuotaManager requestTime;
    /**
     * Kafka's exempt-request-time: the exempt requests' time in percent-seconds, a Rate over the metrics' default
     * windows (2 of 30 s), recorded only while a request quota is set, as ClientRequestQuotaManager.maybeRecordExempt.
     */
    private final SampledRate exemptRequestTime = new SampledRate(SampledStat.DEFAULT_SAMPLES,
            SampledStat.DEFAULT_WINDOW_MS);
    private final BrokerClock clock;
    /**
     * Kafka's {@code queue-size} of each quota manager, the throttled channels in its delay queue: the connections
     * muted for a throttle of that kind, from the answer until the throttle time has passed (also if the connection
     * closed meanwhile, as Kafka's entry stays until it expires).
     */
    private final Map<QuotaType, AtomicInteger> delayQueues = new EnumMap<>(QuotaType.class);

    /**
     * @param windows       {@code quota.window.num}
     * @param windowSeconds {@code quota.window.size.seconds}
     */
    public ClientQuotaEnforcement(ClientQuotas quotas, BrokerClock clock, int windows, int windowSeconds) {
        this(quotas, clock, windows, windowSeconds, QuotaMeters.Factory.NONE);
    }

    /** @param meters the metrics of each kind, Kafka's Produce, Fetch and Request quota sensors */
    public ClientQuotaEnforcement(ClientQuotas quotas, BrokerClock clock, int windows, int windowSeconds,
                                  QuotaMeters.Factory meters) {
        this.clock = clock;
        this.produce = new ClientQuotaManager(QuotaConfig.PRODUCER_BYTE_RATE, quotas, clock::monotonicMs, windows,
                windowSeconds, Long.MAX_VALUE, meters.of(QuotaType.PRODUCE.kafkaName(), "byte-rate"));
        this.fetch = new ClientQuotaManager(QuotaConfig.CONSUMER_BYTE_RATE, quotas, clock::monotonicMs, windows,
                windowSeconds, Long.MAX_VALUE, meters.of(QuotaType.FETCH.kafkaName(), "byte-rate"));
        // A request quota's throttle is at most one window, as ClientRequestQuotaManager bounds it.
        this.requestTime = new ClientQuotaManager(QuotaConfig.REQUEST_PERCENTAGE, quotas, clock::monotonicMs, windows,
                windowSeconds, TimeUnit.SECONDS.toMillis(windowSeconds),
                meters.of(QuotaType.REQUEST.kafkaName(), "request-time"));
        for (QuotaType type : QuotaType.values()) {
            delayQueues.put(type, new AtomicInteger());
        }
    }

    /** Kafka's {@code queue-size} of the quota type's manager now: the connections muted for its throttles. */
    public int queueSize(QuotaType type) {
        return delayQueues.get(type).get();
    }

    /** Kafka's Request exempt-request-time now: percent of a thread, per second. */
    public synchronized double exemptRequestTime() {
        return exemptRequestTime.measure(clock.monotonicMs());
    }

    /** Drops the rates and metrics of the clients idle for an hour, as Kafka expires its quota sensors. */
    public void expireIdle() {
        produce.expireIdle();
        fetch.expireIdle();
        requestTime.expireIdle();
    }

    /**
     * Runs {@code unmute} on the connection's event loop once the throttle's time has passed on the broker's clock,
     * counting the connection in its quota type's queue-size meanwhile.
     */
    public void afterThrottle(ScheduledExecutorService eventLoop, Throttle throttle, Runnable unmute) {
        AtomicInteger queue = delayQueues.get(throttle.throttledBy());
        queue.incrementAndGet();
        clock.scheduleOnce(eventLoop, "the end of a client quota throttle", throttle.throttleMs(), () -> {
            queue.decrementAndGet();
            unmute.run();
        });
    }

    /**
     * The time a request about to be handled spends in its handler, measured on the broker's clock; not measured at
     * all while no {@code request_percentage} quota is set, so that a broker without one reads no clock and makes no
     * object per request for it (a quota set meanwhile counts from the next request).
     */
    public HandlerTime handlerTime() {
        return requestTime.enabled() ? HandlerTime.counted(clock::monotonicNanos) : HandlerTime.NOT_COUNTED;
    }

    /**
     * A served request's outcome: how long to mute the connection (0: not at all), the answer to send, and the quota
     * type whose throttle it is (null when none).
     */
    public record Throttle(int throttleMs, Struct answer, QuotaType throttledBy) {
        static Throttle none(Struct answer) {
            return new Throttle(0, answer, null);
        }
    }

    /**
     * Records the served request against its client's quotas: the longest throttle time, set in the answer. A
     * throttled consumer Fetch is answered empty instead and its bytes taken back from the rate, as Kafka answers it
     * (the records of {@code response} are then the caller's to release).
     *
     * @param requestBytes the request's size without its size prefix, as Kafka's request.sizeInBytes
     * @param handlerTime  the request's time in its handler
     * @param response     the handler's answer: null for a Produce with acks=0, which is recorded too
     */
    public Throttle throttle(Request request, String user, int requestBytes, HandlerTime handlerTime,
                             Struct response) {
        String clientId = clientId(request);
        if (request.api() == ApiKey.PRODUCE) {
            int bandwidthThrottleMs = produce.recordAndGetThrottleTimeMs(user, clientId, requestBytes);
            if (response == null) { // acks=0: exempt from the request quota, as Kafka's no-op response
                recordExempt(handlerTime);
                return new Throttle(bandwidthThrottleMs, null,
                        recordThrottle(QuotaType.PRODUCE, user, clientId, bandwidthThrottleMs, 0));
            }
            int requestThrottleMs = requestThrottleMs(user, clientId, handlerTime);
            QuotaType throttledBy = recordThrottle(QuotaType.PRODUCE, user, clientId, bandwidthThrottleMs,
                    requestThrottleMs);
            int throttleMs = Math.max(bandwidthThrottleMs, requestThrottleMs);
            if (throttleMs > 0) {
                new ProduceResponseView(response).throttleTimeMs(throttleMs);
            }
            return new Throttle(throttleMs, response, throttledBy);
        }
        if (response == null || exemptFromRequestQuota(request)) {
            recordExempt(handlerTime);
            return Throttle.none(response);
        }
        int requestThrottleMs = requestThrottleMs(user, clientId, handlerTime);
        boolean consumerFetch = request.api() == ApiKey.FETCH || request.api() == ApiKey.SHARE_FETCH;
        if (consumerFetch) {
            return consumerFetchThrottle(request, user, clientId, response, requestThrottleMs);
        }
        int controllerThrottleMs = controllerMutationThrottleMs(request.api(), response);
        QuotaType throttledBy = recordThrottle(QuotaType.CONTROLLER_MUTATION, user, clientId, controllerThrottleMs,
                requestThrottleMs);
        int throttleMs = Math.max(controllerThrottleMs, requestThrottleMs);
        if (throttleMs > 0) {
            request.api().response().maybeSetThrottleTimeMs(response, request.version(), throttleMs);
        }
        return new Throttle(throttleMs, response, throttledBy);
    }

    /**
     * A consumer's Fetch or ShareFetch: its response's bytes against {@code consumer_byte_rate}, and answered empty
     * if that quota or the request quota throttles it.
     */
    private Throttle consumerFetchThrottle(Request request, String user, String clientId, Struct response,
                                          int requestThrottleMs) {
        int bandwidthThrottleMs = 0;
        int responseBytes = 0;
        if (fetch.enabled()) {
            // Sized only under a quota, as Kafka's FetchResponse.sizeOf and ShareFetchResponse.sizeOf: the size
            // prefix and the body, no header.
            responseBytes = Frames.SIZE_PREFIX_BYTES + request.api().response().sizeOf(response, request.version());
            bandwidthThrottleMs = fetch.recordAndGetThrottleTimeMs(user, clientId, responseBytes);
        }
        QuotaType throttledBy = recordThrottle(QuotaType.FETCH, user, clientId, bandwidthThrottleMs,
                requestThrottleMs);
        int throttleMs = Math.max(bandwidthThrottleMs, requestThrottleMs);
        if (throttleMs == 0) {
            return Throttle.none(response);
        }
        if (responseBytes > 0) {
            fetch.unrecord(user, clientId, responseBytes); // the records are not sent
        }
        return new Throttle(throttleMs, request.api() == ApiKey.FETCH
                ? throttledFetch(request, response, throttleMs) : throttledShareFetch(response, throttleMs),
                throttledBy);
    }

    /**
     * The quota whose throttle the client gets, as KafkaApis throttles with one manager, and its throttle-time: the
     * other quota's ({@code other}: a byte rate's, or the controller mutations', which ControllerMutationQuotas
     * records itself) if it is longer than the request quota's, else the request quota's; null if neither throttles.
     */
    private QuotaType recordThrottle(QuotaType other, String user, String clientId, int otherThrottleMs,
                                     int requestThrottleMs) {
        if (otherThrottleMs > requestThrottleMs) {
            if (other == QuotaType.PRODUCE) {
                produce.throttled(user, clientId, otherThrottleMs);
            } else if (other == QuotaType.FETCH) {
                fetch.throttled(user, clientId, otherThrottleMs);
            }
            return other;
        }
        if (requestThrottleMs > 0) {
            requestTime.throttled(user, clientId, requestThrottleMs);
            return QuotaType.REQUEST;
        }
        return null;
    }

    /** An exempt request's time in its handler, if counted (only while a request quota is set). */
    private void recordExempt(HandlerTime handlerTime) {
        if (handlerTime.counted()) {
            synchronized (this) {
                exemptRequestTime.record(handlerTime.nanos() * NANOS_TO_PERCENTAGE_PER_SECOND, clock.monotonicMs());
            }
        }
    }

    /**
     * The request's time in its handler against its client's {@code request_percentage}, in percent-seconds (a
     * thread's whole second is 100), as Kafka's ClientRequestQuotaManager records it; 0 if its time is not counted.
     */
    private int requestThrottleMs(String user, String clientId, HandlerTime handlerTime) {
        return handlerTime.counted() ? requestTime.recordAndGetThrottleTimeMs(user, clientId,
                handlerTime.nanos() * NANOS_TO_PERCENTAGE_PER_SECOND) : 0;
    }

    /**
     * The requests Kafka 4.3.1's KafkaApis answers with sendResponseExemptThrottle, whose time counts against no
     * client: a follower's Fetch and WriteTxnMarkers (a transaction coordinator's). (Its ControllerApis exempts the
     * controller's cluster requests; a controller's listener here has no client quotas at all.)
     */
    private static boolean exemptFromRequestQuota(Request request) {
        return request.api() == ApiKey.WRITE_TXN_MARKERS || request.api() == ApiKey.FETCH && fromFollower(request);
    }

    /**
     * The throttle time a CreateTopics, CreatePartitions or DeleteTopics handler set in its answer, having counted
     * the topics against {@code controller_mutation_rate} ({@link ControllerMutationQuotas}): the connection is muted
     * that long, as Kafka's RequestHandlerHelper.sendResponseMaybeThrottleWithControllerQuota mutes it.
     */
    private static int controllerMutationThrottleMs(ApiKey api, Struct response) {
        return switch (api) {
            case CREATE_TOPICS -> new CreateTopicsResponseView(response).throttleTimeMs();
            case CREATE_PARTITIONS -> new CreatePartitionsResponseView(response).throttleTimeMs();
            case DELETE_TOPICS -> new DeleteTopicsResponseView(response).throttleTimeMs();
            default -> 0;
        };
    }

    /**
     * Kafka 4.3.1's ShareFetchContext.throttleResponse: the session's error if the fetch had one, no partitions. The
     * records the fetch acquired are not sent; as in Kafka, they stay acquired until their locks expire
     * ({@code group.share.record.lock.duration.ms}) and then go to the next fetch, this member's or another's.
     */
    private static Struct throttledShareFetch(Struct served, int throttleMs) {
        return new ShareFetchResponseView().throttleTimeMs(throttleMs)
                .errorCode(new ShareFetchResponseView(served).errorCode()).struct();
    }

    /**
     * Kafka's getThrottledResponse: no partitions; the session of an incremental fetch kept (its id, as the handler
     * answered it), none for a full one (a session it opened is left to expire, as in Kafka).
     */
    private static Struct throttledFetch(Request request, Struct served, int throttleMs) {
        FetchRequestView fetchRequest = new FetchRequestView(request.body());
        FetchResponseView answered = new FetchResponseView(served);
        boolean incremental = fetchRequest.sessionId() != 0 && fetchRequest.sessionEpoch() > 0;
        return new FetchResponseView().throttleTimeMs(throttleMs).errorCode(answered.errorCode())
                .sessionId(incremental ? answered.sessionId() : 0).struct();
    }

    /**
     * The most bytes a consumer's Fetch or ShareFetch may answer with under its client's quota, as Kafka's KafkaApis
     * bounds both; no bound for a follower's Fetch.
     */
    public int fetchMaxBytes(String user, Request fetchRequest) {
        boolean follower = fetchRequest.api() == ApiKey.FETCH && fromFollower(fetchRequest);
        return !fetch.enabled() || follower ? Integer.MAX_VALUE
                : fetch.maxValueInQuotaWindow(user, clientId(fetchRequest));
    }

    private static String clientId(Request request) {
        return request.header().clientId() == null ? "" : request.header().clientId();
    }

    /**
     * A follower's Fetch, by the replica id where its version has it: ReplicaState is a struct that reads as its
     * defaults (-1) before v15, so a v4-14 Fetch names its follower in ReplicaId.
     */
    private static boolean fromFollower(Request request) {
        FetchRequestView fetchRequest = new FetchRequestView(request.body());
        int replicaId = request.version() >= FETCH_REPLICA_STATE_FROM_VERSION ? fetchRequest.replicaState().replicaId()
                : fetchRequest.replicaId();
        return replicaId >= 0;
    }
}
