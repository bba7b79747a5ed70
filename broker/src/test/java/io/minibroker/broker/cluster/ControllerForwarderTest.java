package io.minibroker.broker.cluster;

import io.minibroker.broker.api.CloseConnection;
import io.minibroker.broker.api.HandlerTime;
import io.minibroker.broker.api.RequestContext;
import io.minibroker.broker.api.TopicRights;
import io.minibroker.broker.control.RequestMatch;
import io.minibroker.broker.embedded.EmbeddedBroker;
import io.minibroker.broker.network.RefusingPort;
import io.minibroker.broker.replica.ScriptedPeer;
import io.minibroker.protocol.error.Errors;
import io.minibroker.protocol.header.RequestHeader;
import io.minibroker.protocol.message.ApiKey;
import io.minibroker.protocol.message.Request;
import io.minibroker.protocol.message.view.AddRaftVoterRequestView;
import io.minibroker.protocol.message.view.AddRaftVoterResponseView;
import io.minibroker.protocol.message.view.ApiVersionsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsRequestView;
import io.minibroker.protocol.message.view.CreateTopicsResponseView;
import io.minibroker.protocol.message.view.EnvelopeResponseView;
import io.minibroker.protocol.message.view.RemoveRaftVoterRequestView;
import io.minibroker.protocol.message.view.RemoveRaftVoterResponseView;
import io.minibroker.protocol.schema.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.UncheckedIOException;
import java.net.SocketTimeoutException;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@link ControllerForwarder}'s one resend: a request whose connection the controller closed while it was idle (as a
 * restarted controller has) is sent again on a new connection and answered, not failed; a request the controller
 * got but did not answer in time is not sent again, since the controller may have applied it. A single node stands
 * in for the controller: it answers CreateTopics itself, and its controls close its connections as a restart would,
 * or hold its answers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ControllerForwarderTest {

    private static final int SOCKET_TIMEOUT_MS = 30_000;
    private static final RequestContext CLIENT = new RequestContext("PLAINTEXT", null, null, null, TopicRights.ALL,
            Runnable::run, HandlerTime.NOT_COUNTED);

    private final ExecutorService forwarding = Executors.newSingleThreadExecutor();
    private EmbeddedBroker controller;
    private NodeChannel noImage;

    @BeforeEach
    void start() throws Exception {
        controller = EmbeddedBroker.start();
        noImage = new NodeChannel("localhost", 1, "forwarder-test-metadata", SOCKET_TIMEOUT_MS);
        noImage.abort(); // the image fetched after the answer is not this test's: its fetch fails at once
    }

    @AfterEach
    void stop() throws Exception {
        forwarding.shutdownNow();
        noImage.close();
        controller.close();
    }

    private ControllerForwarder forwarderOn(NodeChannel channel) {
        return new ControllerForwarder(channel, new MetadataFetcher(noImage, noImage, 1, UUID.randomUUID(), "PLAINTEXT",
                image -> { }, security -> { }), forwarding);
    }

    private NodeChannel channel(int timeoutMs) {
        return new NodeChannel("localhost", controller.broker().boundPort("PLAINTEXT"), "forwarder-test", timeoutMs);
    }

    private static Struct createTopic(String name) {
        CreateTopicsRequestView create = new CreateTopicsRequestView().timeoutMs(10_000);
        create.addTopic().name(name).numPartitions(1).replicationFactor((short) 1);
        return create.struct();
    }

    @Test
    void aRequestOnAConnectionTheControllerClosedIsResentOnANewOne() throws Exception {
        try (NodeChannel channel = channel(SOCKET_TIMEOUT_MS)) {
            channel.send(ApiKey.API_VERSIONS, new ApiVersionsRequestView().struct()); // the connection is open
            controller.controls().closeConnections(); // and now closed at the controller's end, unknown to the channel

            CreateTopicsResponseView answer = new CreateTopicsResponseView(forwarderOn(channel)
                    .forward(ApiKey.CREATE_TOPICS, (short) 7, createTopic("resent")).get(30, TimeUnit.SECONDS));

            assertThat(answer.topics()).singleElement()
                    .satisfies(topic -> assertThat(topic.errorCode()).isEqualTo(Errors.NONE.code()));
        }
    }

    /**
     * The controller creates the topic but its answer is held past the channel's read timeout: sent again, the
     * request would be answered TOPIC_ALREADY_EXISTS for the topic it created itself (what a client setting up a
     * test on a loaded machine was told). It fails instead, and the controller saw it once.
     */
    @Test
    void aRequestWhoseAnswerDidNotComeInTimeIsNotResent() throws Exception {
        controller.controls().requestLog().start();
        controller.controls().hang(); // requests are still served; only their answers are held
        try (NodeChannel channel = channel(200)) {
            assertThatThrownBy(() -> forwarderOn(channel).forward(ApiKey.CREATE_TOPICS, (short) 7,
                    createTopic("once")).get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(UncheckedIOException.class)
                    .cause().isInstanceOf(SocketTimeoutException.class);
        } finally {
            controller.controls().resume();
        }
        assertThat(controller.controls().requestLog().find(RequestMatch.api(ApiKey.CREATE_TOPICS)))
                .as("CreateTopics requests that reached the controller").hasSize(1);
    }

    /**
     * As Kafka's ForwardingManager: an envelope the controller refuses is answered UNKNOWN_SERVER_ERROR (no message)
     * on each topic; refused UNSUPPORTED_VERSION, the client's connection is closed; a controller that cannot be
     * reached is REQUEST_TIMED_OUT, which clients retry.
     */
    @Test
    void aRefusedEnvelopeIsAnUnknownServerErrorAndAnUnreachableControllerATimeout() throws Exception {
        Request create = new Request(new RequestHeader(ApiKey.CREATE_TOPICS.id(), (short) 7, 5, "app"),
                ApiKey.CREATE_TOPICS, createTopic("refused"));
        try (ScriptedPeer refusing = refusing(Errors.CLUSTER_AUTHORIZATION_FAILED);
             NodeChannel channel = new NodeChannel("localhost", refusing.port(), "forwarder-test", SOCKET_TIMEOUT_MS)) {
            CreateTopicsResponseView answer = new CreateTopicsResponseView(forwarderOn(channel)
                    .handlerFor(ApiKey.CREATE_TOPICS, ForwardingFailure::createTopics).handle(CLIENT, create)
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat(answer.topics()).singleElement().satisfies(topic -> {
                assertThat(topic.name()).isEqualTo("refused");
                assertThat(topic.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
                assertThat(topic.errorMessage()).isNull();
            });
        }
        try (ScriptedPeer refusing = refusing(Errors.UNSUPPORTED_VERSION);
             NodeChannel channel = new NodeChannel("localhost", refusing.port(), "forwarder-test", SOCKET_TIMEOUT_MS)) {
            assertThatThrownBy(() -> forwarderOn(channel).handlerFor(ApiKey.CREATE_TOPICS,
                    ForwardingFailure::createTopics).handle(CLIENT, create).toCompletableFuture()
                    .get(30, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOf(CloseConnection.class);
        }
        try (RefusingPort nobody = new RefusingPort(); NodeChannel channel = unreachable(nobody)) {
            CreateTopicsResponseView answer = new CreateTopicsResponseView(forwarderOn(channel)
                    .handlerFor(ApiKey.CREATE_TOPICS, ForwardingFailure::createTopics).handle(CLIENT, create)
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat(answer.topics()).singleElement().satisfies(topic -> assertThat(topic.errorCode())
                    .isEqualTo(Errors.REQUEST_TIMED_OUT.code()));
        }
    }

    /**
     * AddRaftVoter's and RemoveRaftVoter's answers carry the error's own message, which Kafka's getErrorResponse of
     * both sets (the forwarded APIs' others leave it null).
     */
    @Test
    void aRaftVoterChangeNotAnsweredCarriesTheErrorsMessage() throws Exception {
        Request add = new Request(new RequestHeader(ApiKey.ADD_RAFT_VOTER.id(), (short) 1, 5, "app"),
                ApiKey.ADD_RAFT_VOTER, new AddRaftVoterRequestView().voterId(2).struct());
        Request remove = new Request(new RequestHeader(ApiKey.REMOVE_RAFT_VOTER.id(), (short) 0, 6, "app"),
                ApiKey.REMOVE_RAFT_VOTER, new RemoveRaftVoterRequestView().voterId(2).struct());
        try (ScriptedPeer refusing = refusing(Errors.CLUSTER_AUTHORIZATION_FAILED);
             NodeChannel channel = new NodeChannel("localhost", refusing.port(), "forwarder-test", SOCKET_TIMEOUT_MS)) {
            AddRaftVoterResponseView answer = new AddRaftVoterResponseView(forwarderOn(channel)
                    .handlerFor(ApiKey.ADD_RAFT_VOTER, ForwardingFailure::addRaftVoter).handle(CLIENT, add)
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat(answer.errorCode()).isEqualTo(Errors.UNKNOWN_SERVER_ERROR.code());
            assertThat(answer.errorMessage())
                    .isEqualTo("The server experienced an unexpected error when processing the request.");
        }
        try (RefusingPort nobody = new RefusingPort(); NodeChannel channel = unreachable(nobody)) {
            RemoveRaftVoterResponseView answer = new RemoveRaftVoterResponseView(forwarderOn(channel)
                    .handlerFor(ApiKey.REMOVE_RAFT_VOTER, ForwardingFailure::removeRaftVoter).handle(CLIENT, remove)
                    .toCompletableFuture().get(30, TimeUnit.SECONDS));
            assertThat(answer.errorCode()).isEqualTo(Errors.REQUEST_TIMED_OUT.code());
            assertThat(answer.errorMessage()).isEqualTo("The request timed out.");
        }
    }

    /** A channel to a port where connections are refused: a controller that cannot be reached. */
    private static NodeChannel unreachable(RefusingPort nobody) {
        return new NodeChannel("localhost", nobody.port(), "forwarder-test", SOCKET_TIMEOUT_MS);
    }

    /** A controller that answers every envelope with this error and nothing inside, as Kafka's refuses one. */
    private static ScriptedPeer refusing(Errors error) {
        return new ScriptedPeer("refusing-controller", envelope -> Optional.of(new EnvelopeResponseView()
                .responseData(null).errorCode(error.code()).struct()));
    }
}
