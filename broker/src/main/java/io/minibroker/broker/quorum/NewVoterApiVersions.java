package io.minibroker.broker.quorum;

import io.minibroker.broker.cluster.NodeChannel;
import io.minibroker.broker.config.BrokerConfig;
import io.minibroker.broker.feature.Feature;
import io.minibroker.broker.security.ClientSecurity;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.ApiVersionsResponseView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The ApiVersions request Kafka 4.3.1's AddVoterHandler sends a voter it is asked to add, on the endpoint the
 * AddRaftVoter names for the quorum's listener, to learn which kraft.version levels it supports: sent as a cluster's
 * nodes send each other requests ({@link NodeChannel}, with the listener's TLS and SASL settings), on a thread of its
 * own, as the exchange blocks and at most one addition is under way ({@link VoterSet#beginChange}).
 *
 * <p>Bounded by {@code controller.quorum.request.timeout.ms}, the time Kafka's leader gives the operation: the
 * answer then fails with a {@link TimeoutException}. Here the connection and the answer each have that long (Kafka's
 * timer runs once from the send), which differs only for an endpoint slow to accept and then silent. A connection
 * that fails or closes is Kafka's BROKER_NOT_AVAILABLE, the error its network channel gives a disconnected request.
 */
public final class NewVoterApiVersions {

    private static final Logger LOG = LoggerFactory.getLogger(NewVoterApiVersions.class);
    /** ApiVersions' version that Kafka 4.3.1's Raft client sends, its latest. */
    private static final short API_VERSIONS_VERSION = 4;
    /** The software this node names itself as, as KIP-511 asks; "unknown" without a jar manifest, as Kafka's. */
    private static final String SOFTWARE_NAME = "minibroker";

    private final int timeoutMs;
    private final String clientId;
    private final Function<String, ClientSecurity> security;

    /**
     * @param nodeId   this node's id, in the client id Kafka's Raft client uses ({@code raft-client-<id>})
     * @param security how to connect to other nodes' listener of a name, looked up at each use
     */
    private NewVoterApiVersions(int timeoutMs, int nodeId, Function<String, ClientSecurity> security) {
        this.timeoutMs = timeoutMs;
        this.clientId = "raft-client-" + nodeId;
        this.security = security;
    }

    /**
     * As this node's configuration has it: {@code controller.quorum.request.timeout.ms}, and the listeners' security
     * settings, on the broker's clock {@code monotonicMs}.
     */
    public static NewVoterApiVersions of(BrokerConfig config, LongSupplier monotonicMs) {
        return new NewVoterApiVersions(config.get(BrokerConfig.CONTROLLER_QUORUM_REQUEST_TIMEOUT_MS),
                config.get(BrokerConfig.NODE_ID), listener -> ClientSecurity.forListener(config, listener,
                monotonicMs));
    }

    /**
     * What a voter answers, or a TimeoutException if it does not within the time-out. Kafka's leader, at a time-out
     * of 0, gives up at once.
     */
    CompletableFuture<Answer> ask(InetSocketAddress voter, String listenerName) {
        CompletableFuture<Answer> answer = new CompletableFuture<>();
        if (timeoutMs == 0) {
            answer.completeExceptionally(new TimeoutException());
            return answer;
        }
        Thread asking = new Thread(() -> {
            // Whatever happens the answer completes: the voters' change under way ends with it.
            try {
                answer.complete(exchange(voter, listenerName));
            } catch (SocketTimeoutException e) {
                answer.completeExceptionally(new TimeoutException(e.getMessage()));
            } catch (IOException | RuntimeException e) {
                LOG.info("ApiVersions to the new voter at {} failed: {}", voter, e.toString());
                answer.complete(new Answer(Errors.BROKER_NOT_AVAILABLE, null));
            }
        }, "new-voter-api-versions");
        asking.setDaemon(true);
        asking.start();
        return answer;
    }

    private Answer exchange(InetSocketAddress voter, String listenerName) throws IOException {
        String version = NewVoterApiVersions.class.getPackage().getImplementationVersion();
        ApiVersionsRequestView request = new ApiVersionsRequestView().clientSoftwareName(SOFTWARE_NAME)
                .clientSoftwareVersion(version != null ? version : "unknown");
        try (NodeChannel channel = new NodeChannel(voter.getHostString(), voter.getPort(), clientId, timeoutMs,
                security.apply(listenerName))) {
            ApiVersionsResponseView response = new ApiVersionsResponseView(channel.send(ApiKey.API_VERSIONS,
                    API_VERSIONS_VERSION, request.struct()));
            ApiVersionsResponseView.SupportedFeatureKey kraftVersions = response.supportedFeatures().stream()
                    .filter(feature -> feature.name().equals(Feature.KRAFT_VERSION.featureName()))
                    .findFirst().orElse(null);
            return new Answer(Errors.forCode(response.errorCode()), kraftVersions);
        }
    }

    /**
     * A voter's answer: its error, and the kraft.version levels it supports (null when it names none).
     */
    record Answer(Errors error, ApiVersionsResponseView.SupportedFeatureKey kraftVersions) {
    }
}
