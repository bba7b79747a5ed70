package io.minibroker.broker.cluster;

import io.minibroker.broker.config.Endpoint;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.BrokerHeartbeatRequestView;
import io.minibroker.protocol.message.view.BrokerHeartbeatResponseView;
import io.minibroker.protocol.message.view.BrokerRegistrationRequestView;
import io.minibroker.protocol.message.view.BrokerRegistrationResponseView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * A broker's membership in the cluster, as Kafka's BrokerLifecycleManager keeps it, on a thread of its own
 * ({@code broker-lifecycle}) since it waits on the controller: register with a fresh incarnation id, then
 * heartbeat every {@code broker.heartbeat.interval.ms}; register again when the controller no longer knows the
 * epoch (it restarted, or fenced and replaced this registration). Once registered, the {@link MetadataFetcher}
 * follows the controller's image on its own thread and connection, so a change never waits for a heartbeat and a
 * heartbeat never waits behind a metadata fetch. Each heartbeat reports the image version applied
 * (CurrentMetadataOffset) and asks to stay fenced (WantFence) until the first image is loaded, as Kafka's broker
 * does until it is ready to unfence: the controller unfences it only once it has the image of its registration,
 * so no client is sent to a broker that knows no partition yet. Until its first unfencing a registered broker
 * heartbeats every {@value #STARTING_HEARTBEAT_MS} ms, as Kafka's starting broker, so that it is unfenced
 * moments after its image is loaded rather than a heartbeat interval later. A controller that
 * cannot be reached is tried again at the next interval. A clean stop sends a last heartbeat asking to shut down,
 * so the controller fences this broker at once instead of after the session timeout.
 */
public final class BrokerLifecycle implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(BrokerLifecycle.class);
    /** Kafka's SecurityProtocol id of PLAINTEXT, the only protocol minibroker speaks. */
    private static final short PLAINTEXT = 0;
    /** How soon a registered broker not unfenced yet heartbeats again: Kafka's pace for a STARTING broker. */
    private static final long STARTING_HEARTBEAT_MS = 10;

    private final int nodeId;
    private final String clusterId;
    private final Supplier<List<Endpoint>> advertisedListeners;
    /** {@code broker.rack}, registered with the controller; null: none. */
    private final String rack;
    private final NodeChannel controller;
    private final MetadataFetcher metadata;
    private final long heartbeatIntervalMs;
    private final UUID incarnationId = UUID.randomUUID();
    private final Thread thread;
    private final Object wakeUp = new Object();
    private volatile boolean running = true;
    private volatile long brokerEpoch = -1;
    /** Whether the controller has unfenced this registration yet: only the lifecycle thread reads and writes it. */
    private boolean unfenced;

    public BrokerLifecycle(int nodeId, String clusterId, Supplier<List<Endpoint>> advertisedListeners, String rack,
                           NodeChannel controller, MetadataFetcher metadata, long heartbeatIntervalMs) {
        this.nodeId = nodeId;
        this.clusterId = clusterId;
        this.advertisedListeners = advertisedListeners;
        this.rack = rack;
        this.controller = controller;
        this.metadata = metadata;
        this.heartbeatIntervalMs = heartbeatIntervalMs;
        this.thread = new Thread(this::run, "broker-lifecycle");
        thread.setDaemon(true);
    }

    /** This broker's epoch from its current registration, -1 while it has none. */
    public long brokerEpoch() {
        return brokerEpoch;
    }

    public void start() {
        thread.start();
    }

    private void run() {
        boolean reportedUnreachable = false;
        while (running) {
            boolean answered = false;
            try {
                if (brokerEpoch < 0) {
                    register();
                }
                if (brokerEpoch >= 0) {
                    BrokerHeartbeatResponseView answer = heartbeat(false);
                    answered = answer.errorCode() == Errors.NONE.code();
                    unfenced |= answered && !answer.isFenced();
                }
                reportedUnreachable = false;
            } catch (IOException e) {
                if (!reportedUnreachable) {
                    LOG.warn("Cannot reach the controller ({}); trying again every {} ms", e.toString(),
                            heartbeatIntervalMs);
                    reportedUnreachable = true;
                }
            }
            pause(pauseMs(answered, unfenced, heartbeatIntervalMs));
        }
    }

    private void register() throws IOException {
        BrokerRegistrationRequestView request = new BrokerRegistrationRequestView()
                .brokerId(nodeId).clusterId(clusterId).incarnationId(incarnationId).rack(rack);
        for (Endpoint endpoint : advertisedListeners.get()) {
            request.addListener().name(endpoint.listenerName()).host(endpoint.host()).port(endpoint.port())
                    .securityProtocol(PLAINTEXT);
        }
        BrokerRegistrationResponseView response = new BrokerRegistrationResponseView(
                controller.send(ApiKey.BROKER_REGISTRATION, request.struct()));
        Errors error = Errors.forCode(response.errorCode());
        if (error == Errors.NONE) {
            brokerEpoch = response.brokerEpoch();
            unfenced = false;
            LOG.info("Registered with the controller as broker {} with epoch {}", nodeId, brokerEpoch);
            metadata.startFollowing();
        } else {
            LOG.warn("The controller refused broker {}'s registration: {}", nodeId, error);
        }
    }

    private BrokerHeartbeatResponseView heartbeat(boolean wantShutDown) throws IOException {
        BrokerHeartbeatResponseView response = new BrokerHeartbeatResponseView(controller.send(
                ApiKey.BROKER_HEARTBEAT, new BrokerHeartbeatRequestView()
                        .brokerId(nodeId).brokerEpoch(brokerEpoch).currentMetadataOffset(metadata.appliedVersion())
                        .wantFence(!metadata.loaded()).wantShutDown(wantShutDown).struct()));
        Errors error = Errors.forCode(response.errorCode());
        if (error == Errors.STALE_BROKER_EPOCH || error == Errors.BROKER_ID_NOT_REGISTERED) {
            LOG.info("The controller does not know broker {} with epoch {} ({}); registering again", nodeId,
                    brokerEpoch, error);
            brokerEpoch = -1;
        } else if (error != Errors.NONE) {
            LOG.warn("The controller refused broker {}'s heartbeat: {}", nodeId, error);
        }
        return response;
    }

    /**
     * How long to wait before the next heartbeat: Kafka's starting pace (10 ms) only after an answered heartbeat of a
     * broker not yet unfenced, so that it is unfenced as soon as it has caught up; after a failure, or once
     * unfenced, the heartbeat interval (a controller that cannot be reached is not asked 100 times a second).
     */
    static long pauseMs(boolean answered, boolean unfenced, long heartbeatIntervalMs) {
        return answered && !unfenced ? STARTING_HEARTBEAT_MS : heartbeatIntervalMs;
    }

    private void pause(long ms) {
        synchronized (wakeUp) {
            if (!running) {
                return;
            }
            try {
                wakeUp.wait(ms);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // only stopThread wakes us; an interrupt ends the thread
                running = false;
            }
        }
    }

    /** Stops heartbeating without a word to the controller, as a crash would: it fences us after the session. */
    public void halt() {
        if (stopThread()) {
            controller.close();
        }
    }

    /** Stops heartbeating and tells the controller this broker is shutting down (a controlled shutdown). */
    @Override
    public void close() {
        if (!stopThread()) {
            return;
        }
        try {
            if (brokerEpoch >= 0 && heartbeat(true).shouldShutDown()) {
                LOG.info("The controller fenced broker {} for its shutdown", nodeId);
            }
        } catch (IOException e) {
            LOG.warn("Could not tell the controller that broker {} is shutting down: {}", nodeId, e.toString());
        }
        controller.close();
    }

    /** Stops the thread and waits for its last request; false if it was already stopped. */
    private boolean stopThread() {
        synchronized (wakeUp) {
            if (!running) {
                return false;
            }
            running = false;
            wakeUp.notifyAll();
        }
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return true;
    }
}
